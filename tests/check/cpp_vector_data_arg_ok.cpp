// A vector's storage handed straight to a function that offloads: `scale(v.data(), n)`. The
// kernel writes through the parameter and the map is `tofrom`: the host reads the results.
#include <cstdio>
#include <vector>

static void scale(double *x, int n, double by) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; i++)
    x[i] *= by;
}

int main() {
  const int n = 256;
  std::vector<double> v(n, 1.0);
  scale(v.data(), n, 3.0);
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += v[i];
  std::printf("sum = %.1f (want %.1f)\n", sum, 3.0 * n);
  return 0;
}
