/* Scalar mapped `to`: `alpha` is only read by the kernel, so map(to: alpha) allocates device
 * memory and copies 8 bytes where firstprivate (the implicit rule) passes the value with the
 * launch. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 5000;
  double alpha = 1.5;
  double *x = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    x[i] = (double)(i % 8);
    y[i] = 1.0;
  }

#pragma omp target teams distribute parallel for map(to: x[0:n], alpha) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = alpha * x[i] + y[i];

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += y[i];
  printf("sum=%.2f\n", sum);
  free(x);
  free(y);
  return 0;
}
