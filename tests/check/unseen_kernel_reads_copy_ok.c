/* The data region copies `v` to the device for a kernel in a header (include/halve_kernel.h)
 * that omplens cannot see into. The kernel reads the copy, so `to` is needed: no finding may
 * say the copy is unused (a fix taking it away would halve garbage). */
#include <stdio.h>
#include <stdlib.h>
#include "include/halve_kernel.h"

#define N 256

int main(void) {
  double *v = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    v[i] = 2.0 * i;
#pragma omp target data map(tofrom: v[0:N])
  {
    halve_on_device(v, N);
    halve_on_device(v, N);
  }
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += v[i];
  printf("sum=%.1f\n", sum);
  free(v);
  return 0;
}
