/* Three kernels in a row on malloc'd arrays sized by a variable: a -> b -> c. Only c is
 * read on the host at the end; a is updated in place on the device but never read back,
 * b is a device-only intermediate. Implicitly the pointers are never mapped. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 2048;
  double *a = malloc(n * sizeof(double));
  double *b = malloc(n * sizeof(double));
  double *c = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 23) - 11.0;

#pragma omp target data map(to: a[0:n]) map(from: c[0:n]) map(alloc: b[0:n])
  {
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      a[i] = a[i] * a[i];

#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      b[i] = 0.5 * a[i] + 1.0;

#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      c[i] = 2.0 * b[i] - a[i] + (double)(i % 4);
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += c[i];
  printf("sum=%.6f c[0]=%.6f c[%d]=%.6f\n", sum, c[0], n - 1, c[n - 1]);

  free(a);
  free(b);
  free(c);
  return 0;
}
