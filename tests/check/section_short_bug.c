/* Partially missing data: the section maps only the first half of `x`, but the kernel reads
 * all n elements. The device copy is n/2 elements long; the reads past it see memory that
 * does not hold x. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 4096;
  double *x = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    x[i] = (double)(i % 21);

#pragma omp target teams distribute parallel for map(to: x[0:n / 2]) map(from: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 1.0;

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += y[i];
  printf("sum=%.1f\n", sum);
  free(x);
  free(y);
  return 0;
}
