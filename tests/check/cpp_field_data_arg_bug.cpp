// The storage of a field class handed straight to a function that offloads: `twice(u.data(),
// n)` maps it `to`, the kernel doubles it, and the host then sums the old values.
#include <cstdio>
#include <vector>
class Field {
public:
  explicit Field(int n) : v_(n, 1.0) {}
  double *data() { return v_.data(); }
  double &operator[](int i) { return v_[i]; }
private:
  std::vector<double> v_;
};
static void twice(double *x, int n) {
#pragma omp target teams distribute parallel for map(to: x[0:n])
  for (int i = 0; i < n; i++)
    x[i] = 2.0 * x[i];
}
int main() {
  const int n = 512;
  Field u(n);
  twice(u.data(), n);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += u[i];
  std::printf("s=%.1f\n", s);
  return 0;
}
