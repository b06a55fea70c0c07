// A pointer named `firstprivate` on a kernel points, on the device, to the device copy of
// what it points to when that is present (OpenMP 5.2, as clang does): the kernel scales the
// array `target enter data` mapped, and `target update from` brings the results back.
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(void) {
  double *p = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    p[i] = i;
#pragma omp target enter data map(to: p[0:N])
#pragma omp target firstprivate(p)
  for (int i = 0; i < N; i++)
    p[i] = 2.0 * p[i];
#pragma omp target update from(p[0:N])
#pragma omp target exit data map(delete: p[0:N])
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += p[i];
  printf("%.1f\n", sum);
  free(p);
  return 0;
}
