/* Entered data never exited: `prepare` enters the coefficients and `run` uses them, but no
 * `target exit data` ever unmaps them before `free`. The device copy leaks, and the freed
 * host range stays in the present table. */
#include <stdio.h>
#include <stdlib.h>

static void prepare(const double *c, int n) {
#pragma omp target enter data map(to: c[0:n])
}

static void run(const double *c, double *out, int n) {
#pragma omp target teams distribute parallel for map(from: out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = c[i] * c[i];
}

int main(void) {
  int n = 1200;
  double *c = (double *)malloc(n * sizeof(double));
  double *out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    c[i] = (double)(i % 12) - 5.0;

  prepare(c, n);
  run(c, out, n);

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += out[i];
  printf("sum=%.1f\n", sum);
  free(c);
  free(out);
  return 0;
}
