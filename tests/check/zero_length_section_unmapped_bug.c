// `p[:0]` maps no storage, and nothing maps `a` before this kernel: the kernel's pointer is
// not attached to device memory holding the array, so its accesses do not reach it.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = i;
#pragma omp target teams distribute parallel for map(a[:0])
  for (int i = 0; i < n; i++)
    a[i] += 1;
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += a[i];
  printf("sum = %.1f (want %.1f)\n", sum, n * (n - 1) / 2.0 + n);
  free(a);
  return 0;
}
