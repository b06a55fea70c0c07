/* Working twin of unmapped_malloc_bug.c: the input behind `x` is mapped `to` with its
 * length. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 5000;
  double *x = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    x[i] = (double)(i % 11);

#pragma omp target teams distribute parallel for map(to: x[0:n]) map(from: y[0:n])
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
