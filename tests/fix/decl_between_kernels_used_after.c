/* A value declared between two kernels (`checkpoint`) is used after the second one: the data
 * region around the kernels must take in that use too, or its braces would end the
 * declaration's scope before it (HeCBench's `auto start = now(); ... auto end = now();`
 * timers, which made `fix --replace` refuse 12 benchmarks). */
#include <stdio.h>
#include <stdlib.h>

#define N 4096

int main(void) {
  double *a = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    a[i] = i % 10;
  int steps = 0;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    a[i] = a[i] + 1.0;
  steps++;
  int checkpoint = steps * 10;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    a[i] = a[i] * 2.0;
  steps++;
  printf("steps=%d checkpoint=%d\n", steps, checkpoint);
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += a[i];
  printf("sum=%.1f\n", sum);
  free(a);
  return 0;
}
