/* Out-of-bounds copy in and out: `shift` maps its parameter with one element too many
 * (`n + 1`, an off-by-one on the length), so the map reads one element past the caller's
 * allocation on the way in and writes it back on the way out. */
#include <stdio.h>
#include <stdlib.h>

static void shift(double *a, int n, double by) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n + 1])
  for (int i = 0; i < n; i++)
    a[i] = a[i] + by;
}

int main(void) {
  int n = 2500;
  double *a = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 6);

  shift(a, n, 1.5);

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += a[i];
  printf("sum=%.2f\n", sum);
  free(a);
  return 0;
}
