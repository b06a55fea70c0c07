// The kernel doubles the array on the device, but its map is `to`: the host prints the
// values it filled, not the doubled ones. The `try` before it has a handler that returns;
// omplens used to run the handler after the try block on every path, so the handler's
// `return` made everything after it unreachable and the stale read went unreported.
#include <cstdio>
#include <stdexcept>

static void fill(double *a, int n) {
  if (n < 0)
    throw std::runtime_error("negative size");
  for (int i = 0; i < n; i++)
    a[i] = i;
}

int main() {
  const int n = 64;
  double *a = new double[n];
  try {
    fill(a, n);
  } catch (const std::exception &e) {
    std::printf("failed: %s\n", e.what());
    return 1;
  }
#pragma omp target teams distribute parallel for map(to: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= 2.0;
  std::printf("a[3]=%.1f a[63]=%.1f\n", a[3], a[63]);
  delete[] a;
  return 0;
}
