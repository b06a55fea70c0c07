// The working version of cpp_try_catch_stale_read_bug.cpp: the doubled values come back with
// `tofrom`.
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
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= 2.0;
  std::printf("a[3]=%.1f a[63]=%.1f\n", a[3], a[63]);
  delete[] a;
  return 0;
}
