// Buggy twin of cpp_device_vector_pull_ok.cpp: no `pull()` before the host reads the
// elements, so it reads the values from before the kernel.
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
  double s = 0.0;
  for (int i = 0; i < 100; i++) s += v[i];
  std::printf("%f\n", s);
  return 0;
}
