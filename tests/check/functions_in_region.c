/* Functions called inside a data region: main maps the arrays once; `smooth` and `scale`
 * launch kernels on their pointer parameters, whose zero-length sections find the data
 * present. Only the result comes back. */
#include <stdio.h>
#include <stdlib.h>

static void smooth(const double *in, double *out, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    out[i] = 0.5 * in[i] + 0.25 * (in[(i + n - 1) % n] + in[(i + 1) % n]);
}

static void scale(double *x, int n, double f) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    x[i] *= f;
}

int main(void) {
  int n = 4096;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 64);

#pragma omp target data map(to: a[0:n]) map(from: b[0:n])
  {
    smooth(a, b, n);
    scale(b, n, 4.0);
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += b[i] * (double)(i % 3);
  printf("sum=%.2f\n", sum);
  free(a);
  free(b);
  return 0;
}
