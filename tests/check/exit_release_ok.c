/* Working twin of exit_release_bug.c: the exit maps the data `from`, so the count drops to
 * zero and the device values are copied back before the host reads them. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 2000;
  double *x = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    x[i] = (double)(i % 10);

#pragma omp target enter data map(to: x[0:n])

#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    x[i] = x[i] * x[i] - 1.0;

#pragma omp target exit data map(from: x[0:n])

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += x[i];
  printf("sum=%.1f\n", sum);
  free(x);
  return 0;
}
