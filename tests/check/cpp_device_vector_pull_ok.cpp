// A device vector class: the constructor enters its storage, `scale` runs a kernel on it,
// `pull` copies it back with `target update from` through the member, the destructor deletes
// the device copy. The host reads the elements after `pull`.
#include <cstdio>
class DevVec {
public:
  explicit DevVec(int n) : n_(n), a_(new double[n]) {
    for (int i = 0; i < n; i++) a_[i] = 1.0;
    double *a = a_;
#pragma omp target enter data map(to: a[0:n])
  }
  ~DevVec() {
    double *a = a_;
    int n = n_;
#pragma omp target exit data map(delete: a[0:n])
    delete[] a_;
  }
  void pull() {
    double *a = a_;
    int n = n_;
#pragma omp target update from(a[0:n])
  }
  void scale(double f) {
    double *a = a_;
    int n = n_;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) a[i] *= f;
  }
  double &operator[](int i) { return a_[i]; }
private:
  int n_;
  double *a_;
};
int main() {
  DevVec v(100);
  v.scale(3.0);
  v.pull();
  double s = 0.0;
  for (int i = 0; i < 100; i++) s += v[i];
  std::printf("%f\n", s);
  return 0;
}
