// A member array mapped in the constructor as `d[0:n]` (through the implicit `this->`) and
// copied back and released in the destructor as `this[0].d[:n]`: the same list item (the
// object `this[0]` is `*this`). The kernel doubles the data on the device; the destructor's
// `from` brings it back before `main` prints it. Before, `this[0].d` was not recognised as
// the member: a false OMP108 ("never unmapped") on the constructor's `enter data`.
#include <cstdio>

struct Buf {
  int n;
  double *d;
  Buf(int n_, double *d_) : n(n_), d(d_) {
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
    Buf b(8, x);
    b.twice();
  }
  double sum = 0;
  for (int i = 0; i < 8; i++)
    sum += x[i];
  std::printf("%.1f\n", sum);
  return 0;
}
