// A `catch` block that returns: no edge of omplens's control-flow graph reaches it, and the
// synthesis's validity analysis used to index an empty state there (a panic on HeCBench's
// iso2dfd). The kernel doubles data the host filled; the host prints an element.
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
  } catch (...) {
    a[0] = -1.0;
    std::printf("failed: %.1f\n", a[0]);
    return 1;
  }
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= 2.0;
  std::printf("a[3]=%.1f a[63]=%.1f\n", a[3], a[63]);
  delete[] a;
  return 0;
}
