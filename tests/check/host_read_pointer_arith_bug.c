/* The host reads the kernel's results through pointer arithmetic, `*(row + j)` and
 * `*(v + n * i + j)`, which are `row[j]` and `v[n * i + j]`: reads of the data. The map is
 * `to` only, so the host reads the values from before the kernel (HeCBench's gaussian reads
 * its matrix so in BackSub). */
#include <stdio.h>
#include <stdlib.h>

#define N 32

static double trace(const double *v, int n) {
  double t = 0.0;
  for (int i = 0; i < n; i++)
    t += *(v + n * i + i);
  return t;
}

int main(void) {
  double *v = (double *)calloc(N * N, sizeof(double));
#pragma omp target teams distribute parallel for map(to: v[0:N * N])
  for (int k = 0; k < N * N; k++)
    v[k] = (k % (N + 1) == 0) ? 2.0 : 0.5;
  double *row = v + N;
  double first = 0.0;
  for (int j = 0; j < N; j++)
    first += *(row + j);
  printf("trace=%.1f row1=%.1f\n", trace(v, N), first);
  free(v);
  return 0;
}
