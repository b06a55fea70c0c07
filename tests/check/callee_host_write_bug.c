/* Pointers passed to callees: between two calls of `accumulate`, `normalize` changes the
 * input on the host through its pointer parameter while main holds it mapped. The second
 * kernel launch reads the device copy made before the change. */
#include <stdio.h>
#include <stdlib.h>

static void normalize(double *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = p[i] / 4.0;
}

static void accumulate(const double *in, double *out, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    out[i] += 2.0 * in[i];
}

int main(void) {
  int n = 3000;
  double *in = (double *)malloc(n * sizeof(double));
  double *out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    in[i] = (double)(i % 16);
    out[i] = 1.0;
  }

#pragma omp target data map(to: in[0:n]) map(tofrom: out[0:n])
  {
    accumulate(in, out, n);
    normalize(in, n);
    accumulate(in, out, n);
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += out[i];
  printf("sum=%.4f\n", sum);
  free(in);
  free(out);
  return 0;
}
