/* Unused copy in: the scratch buffer `tmp` is mapped `to`, but the device writes all of it
 * in the first kernel before the second reads it; its host contents are never used on the
 * device, so map(alloc:) is enough. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 4000;
  double *a = (double *)malloc(n * sizeof(double));
  double *tmp = (double *)malloc(n * sizeof(double));
  double *out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    a[i] = (double)(i % 10);
    tmp[i] = 0.0;
  }

#pragma omp target data map(to: a[0:n], tmp[0:n]) map(from: out[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      tmp[i] = a[i] + a[(i + 1) % n];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      out[i] = tmp[i] * tmp[(i + n - 1) % n];
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += out[i];
  printf("sum=%.1f\n", sum);
  free(a);
  free(tmp);
  free(out);
  return 0;
}
