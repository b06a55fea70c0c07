// `p[:0]` maps no storage: it finds the data a mapping already in force made present and
// attaches the kernel's pointer to it. Here the `target data` region around the kernel (and,
// in `scale`, the caller's region) maps the whole array, so the kernels' elements are all on
// the device.
#include <stdio.h>
#include <stdlib.h>

static void scale(double *a, int n, double by) {
#pragma omp target teams distribute parallel for map(a[:0])
  for (int i = 0; i < n; i++)
    a[i] *= by;
}

int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = i;
#pragma omp target data map(tofrom: a[0:n])
  {
#pragma omp target teams distribute parallel for map(a[:0])
    for (int i = 0; i < n; i++)
      a[i] += 1;
    scale(a, n, 2.0);
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += a[i];
  printf("sum = %.1f (want %.1f)\n", sum, 2.0 * (n * (n - 1) / 2.0 + n));
  free(a);
  return 0;
}
