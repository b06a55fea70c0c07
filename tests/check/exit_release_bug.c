/* Missing copy back on exit: the data is entered with `to`, a kernel updates it, and the
 * exit uses `release`, which frees the device copy without copying it back. The host then
 * prints the values it had before the kernel ran. */
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

#pragma omp target exit data map(release: x[0:n])

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += x[i];
  printf("sum=%.1f\n", sum);
  free(x);
  return 0;
}
