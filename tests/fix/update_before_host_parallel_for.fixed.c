// A kernel computes determinants; the host checks them in a loop it runs with its own
// threads (`#pragma omp parallel for`). The copy back goes before that directive: nothing
// may stand between a directive and the loop it governs.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 4096;
  double *x = (double *)malloc(n * sizeof(double));
  double *det = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    x[i] = 1.0 + (i % 9);
  int bad = 0;
#pragma omp target data map(to: x[0:n]) map(alloc: det[0:n])
  for (int step = 0; step < 3; step++) {
#pragma omp target teams distribute parallel for firstprivate(n, step)
    for (int i = 0; i < n; i++)
      det[i] = x[i] * x[i] - 2.0 * step;
#pragma omp target update from(det[0:n])
#pragma omp parallel for reduction(+ : bad)
    for (int i = 0; i < n; i++)
      if (det[i] <= 0.0)
        bad += 1;
  }
  printf("bad %d\n", bad);
  free(x);
  free(det);
  return 0;
}
