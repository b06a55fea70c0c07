/* A three-stage pipeline: stage1(a, b, n), stage2(b, c, n), stage3(c, a, n), each holding one
 * kernel, called in sequence in a loop in main on malloc'd arrays. The data-flow crosses
 * function boundaries; b and c are device-only intermediates, a is read at the end. */
#include <stdio.h>
#include <stdlib.h>

void stage1(const double *a, double *b, int n) {
#pragma omp target teams distribute parallel for map(to: a[0:n]) map(from: b[0:n]) firstprivate(n)
  for (int i = 0; i < n; i++)
    b[i] = 0.5 * a[i] + 1.0;
}

void stage2(const double *b, double *c, int n) {
#pragma omp target teams distribute parallel for map(to: b[0:n]) map(from: c[0:n]) firstprivate(n)
  for (int i = 0; i < n; i++)
    c[i] = b[i] + 0.25 * (double)(i % 4);
}

void stage3(const double *c, double *a, int n) {
#pragma omp target teams distribute parallel for map(to: c[0:n]) map(from: a[0:n]) firstprivate(n)
  for (int i = 0; i < n; i++)
    a[i] = c[i] - 0.5 * c[(i + 1) % n];
}

int main(void) {
  const int n = 2500;
  double *a = malloc(n * sizeof(double));
  double *b = malloc(n * sizeof(double));
  double *c = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 11);

#pragma omp target data map(tofrom: a[0:n]) map(alloc: b[0:n], c[0:n])
  for (int it = 0; it < 10; it++) {
    stage1(a, b, n);
    stage2(b, c, n);
    stage3(c, a, n);
  }

  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i] * (double)(i % 3 + 1);
  printf("s=%.6f a[0]=%.6f a[7]=%.6f\n", s, a[0], a[7]);
  free(a);
  free(b);
  free(c);
  return 0;
}
