/* The index i * n + j goes through a local variable and n is a parameter: the stride of the
 * parallel loop is symbolic (8 * n bytes), its requests unknown; collapse(2) is safe by the
 * symbolic difference test (|n * di| > |dj| since 0 <= j < n) and makes j consecutive. */
#include <stdio.h>
#include <stdlib.h>

static void scale_add(double *out, const double *in, int m, int n, double f) {
#pragma omp target teams distribute parallel for map(to: in[0:m * n]) map(tofrom: out[0:m * n])
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      int idx = i * n + j;
      out[idx] = out[idx] * f + in[idx];
    }
}

int main(void) {
  int m = 50, n = 70;
  double *a = (double *)malloc(sizeof(double) * m * n);
  double *b = (double *)malloc(sizeof(double) * m * n);
  for (int q = 0; q < m * n; q++) {
    a[q] = (double)(q % 13);
    b[q] = (double)(q % 4) - 1.5;
  }
  scale_add(a, b, m, n, 0.75);
  scale_add(a, b, m, n, 1.25);
  double s = 0.0;
  for (int q = 0; q < m * n; q++)
    s += a[q] * (double)(q % 3 + 1);
  printf("checksum %.4f\n", s);
  free(a);
  free(b);
  return 0;
}
