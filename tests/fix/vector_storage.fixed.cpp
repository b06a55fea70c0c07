// Plain functions on std::vector<double>: main takes raw pointers with v.data() and runs
// saxpy-like kernels on them in a loop; the host reads v only at the end. Implicit rules
// leave both heap buffers unmapped; w is read-only on the device, v is updated.
#include <cstdio>
#include <vector>

static void fill(std::vector<double> &v, int period) {
  for (size_t i = 0; i < v.size(); i++)
    v[i] = (double)(i % period);
}

static double checksum(const std::vector<double> &v) {
  double s = 0.0;
  for (size_t i = 0; i < v.size(); i++)
    s += v[i] * (double)(i % 5 + 1);
  return s;
}

int main() {
  const int n = 3000;
  std::vector<double> v(n), w(n);
  fill(v, 10);
  fill(w, 7);
  double *x = v.data();
  double *y = w.data();
  double a = 0.5;
#pragma omp target data map(to: y[0:n]) map(tofrom: x[0:n])
  for (int it = 0; it < 16; it++) {
#pragma omp target teams distribute parallel for firstprivate(a, n)
    for (int i = 0; i < n; i++)
      x[i] = a * x[i] + y[i];
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      x[i] = x[i] - 0.25 * y[i];
  }
  std::printf("checksum=%.6f v[0]=%.6f v[13]=%.6f\n", checksum(v), v[0], v[13]);
  return 0;
}
