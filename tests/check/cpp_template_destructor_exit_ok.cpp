// A class template maps its member array in the constructor and copies it back and releases
// it in the destructor; `main`'s object is a specialisation (`Buf<double>`), destroyed at the
// end of its block. The kernel doubles the data on the device; the destructor's `from`
// brings it back before `main` prints it. Before, the destructor of a template's
// specialisation was not called at the end of the block (libclang lists no members of an
// implicit instantiation): a false OMP108 and a false OMP101.
#include <cstdio>

template <typename T> struct Buf {
  int n;
  T *d;
  Buf(int n_, T *d_) : n(n_), d(d_) {
#pragma omp target enter data map(to: this[:1])
#pragma omp target enter data map(to: d[0:n])
  }
  void twice() {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      d[i] = 2.0 * d[i];
  }
  ~Buf() {
#pragma omp target exit data map(from: this[0].d[:n])
#pragma omp target exit data map(release: this[:1])
  }
};

int main() {
  double x[8];
  for (int i = 0; i < 8; i++)
    x[i] = i;
  {
    Buf<double> b(8, x);
    b.twice();
  }
  double sum = 0;
  for (int i = 0; i < 8; i++)
    sum += x[i];
  std::printf("%.1f\n", sum);
  return 0;
}
