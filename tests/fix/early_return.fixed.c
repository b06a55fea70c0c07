/* A function that returns -1 early when n <= 0 or a host check of the input fails, and
 * otherwise runs two kernels (through a malloc'd temporary) and returns 0. The mapping
 * region belongs after the early returns, inside process; the pointers are unmapped
 * under the implicit rules. */
#include <stdio.h>
#include <stdlib.h>

int process(double *a, int n) {
  if (n <= 0)
    return -1;
  for (int i = 0; i < n; i++)
    if (a[i] < 0.0)
      return -1;

  double *tmp = malloc(n * sizeof(double));
#pragma omp target data map(tofrom: a[0:n]) map(alloc: tmp[0:n])
  {
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      tmp[i] = a[i] * a[i];

#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 1; i < n - 1; i++)
      a[i] = 0.5 * tmp[i] + 0.25 * (tmp[i - 1] + tmp[i + 1]);
  }
  free(tmp);
  return 0;
}

int main(void) {
  int n = 1500;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 10);

  int r0 = process(a, 0);
  int r1 = process(a, n);
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += a[i];
  printf("r0=%d r1=%d sum=%.6f a[1]=%.6f a[%d]=%.6f\n", r0, r1, sum, a[1], n - 1,
         a[n - 1]);

  a[3] = -1.0;
  int r2 = process(a, n);
  printf("r2=%d a[4]=%.6f\n", r2, a[4]);
  free(a);
  return 0;
}
