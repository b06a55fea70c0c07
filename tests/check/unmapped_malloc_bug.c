/* Missing data: the kernel reads `x` through a pointer that is never mapped. Implicitly the
 * pointer is a zero-length section, so the device has no copy of the data (a GPU would
 * fault; host offloading passes the host address through and the oracle reports it). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 5000;
  double *x = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    x[i] = (double)(i % 11);

#pragma omp target teams distribute parallel for map(from: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = 4.0 * x[i] - 3.0;

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += y[i];
  printf("sum=%.1f\n", sum);
  free(x);
  free(y);
  return 0;
}
