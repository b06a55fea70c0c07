/* Source of the captured INFO log mixed_c.txt (clang-19 -O1 -g, host offload, LIBOMPTARGET_INFO=35).
 * Covers to/from/tofrom of arrays and sections, a firstprivate scalar, an implicitly mapped
 * fixed-size array, a never-mapped malloc pointer (y), target data + update (z), and
 * target enter data with a kernel in a loop (w). Not built by the tests. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N], b[N], c[N];
  int s = 3;
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 2*i; c[i] = 0; }
  #pragma omp target map(to: a) map(from: c) map(tofrom: b[10:20])
  for (int i = 0; i < N; i++) { c[i] = a[i] * s; if (i >= 10 && i < 30) b[i] += 1; }
  double f[N];
  for (int i = 0; i < N; i++) f[i] = i;
  #pragma omp target
  for (int i = 0; i < N; i++) f[i] += s;
  double *y = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) y[i] = i;
  #pragma omp target
  for (int i = 0; i < N; i++) y[i] *= 2;
  double *z = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) z[i] = i;
  #pragma omp target data map(tofrom: z[0:N])
  {
    #pragma omp target
    for (int i = 0; i < N; i++) z[i] += 1;
    #pragma omp target update from(z[0:N])
    z[0] = 42;
    #pragma omp target update to(z[0:N])
  }
  double *w = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) w[i] = i;
  #pragma omp target enter data map(to: w[0:N])
  for (int t = 0; t < 3; t++) {
    #pragma omp target
    for (int i = 0; i < N; i++) w[i] += 1;
  }
  #pragma omp target exit data map(from: w[0:N])
  printf("%g %g %g %g %g %g\n", c[5], b[15], f[3], y[4], z[1], w[2]);
  return 0;
}
