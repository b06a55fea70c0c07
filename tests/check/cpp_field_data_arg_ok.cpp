// Working twin of cpp_field_data_arg_bug.cpp: the callee copies the storage back (`tofrom`).
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
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
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
