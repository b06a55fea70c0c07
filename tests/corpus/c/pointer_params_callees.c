// Exercises pointer parameters written by callees: kernels inside leaf functions reached through a call chain, with data mapped by the caller.
#include <stdio.h>
#include <stdlib.h>

/* leaf: writes through its output pointer on the device */
static void scale_into(double *out, const double *in, double f, int n) {
#pragma omp target teams distribute parallel for map(present, to: in[0:n]) map(present, from: out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = f * in[i];
}

/* leaf: in-place update of a pointer parameter */
static void add_inplace(double *acc, const double *x, int n) {
#pragma omp target teams distribute parallel for map(tofrom: acc[0:n]) map(to: x[0:n])
  for (int i = 0; i < n; i++)
    acc[i] += x[i];
}

/* middle: passes its pointers down, does not touch data itself */
static void combine(double *acc, double *tmp, const double *x, int n, int rounds) {
  for (int r = 0; r < rounds; r++) {
    scale_into(tmp, x, (double)(r + 1), n);
    add_inplace(acc, tmp, n);
  }
}

/* writes a scalar result through a pointer parameter */
static void norm1(const double *v, int n, double *result) {
  double s = 0.0;
#pragma omp target teams distribute parallel for map(to: v[0:n]) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += v[i] < 0.0 ? -v[i] : v[i];
  *result = s;
}

int main(void) {
  int n = 333;
  double *x = (double *)malloc(sizeof(double) * n);
  double *tmp = (double *)malloc(sizeof(double) * n);
  double *acc = (double *)calloc((size_t)n, sizeof(double));
  for (int i = 0; i < n; i++)
    x[i] = (double)((i % 7) - 3);

#pragma omp target data map(to: x[0:n]) map(alloc: tmp[0:n]) map(tofrom: acc[0:n])
  {
    combine(acc, tmp, x, n, 4);
  }

  double nrm = 0.0;
  norm1(acc, n, &nrm);
  printf("acc[0]=%.1f acc[6]=%.1f norm1=%.1f\n", acc[0], acc[6], nrm);
  free(x);
  free(tmp);
  free(acc);
  return 0;
}
