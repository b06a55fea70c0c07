// Exercises default(none|shared|firstprivate) together with private, firstprivate and shared clauses on offloaded teams/parallel constructs.
#include <stdio.h>

#define N 240

int main(void) {
  double a[N], b[N];
  double base = 1.5;
  int n = N;
  for (int i = 0; i < N; i++) {
    a[i] = (double)(i % 6);
    b[i] = 0.0;
  }

  /* default(none): everything listed explicitly */
#pragma omp target teams distribute parallel for default(none) shared(a, b) firstprivate(base, n) \
    map(to: a) map(from: b)
  for (int i = 0; i < n; i++)
    b[i] = a[i] * base;

  /* default(shared) plus a private temporary */
  double t;
#pragma omp target teams distribute parallel for default(shared) private(t) map(tofrom: b) map(to: a)
  for (int i = 0; i < N; i++) {
    t = a[i] + 1.0;
    b[i] = b[i] + t;
  }

  /* default(firstprivate) on the parallel part: shift is copied per thread */
  int shift = 3;
#pragma omp target map(tofrom: a)
#pragma omp parallel for default(firstprivate) shared(a)
  for (int i = 0; i < N; i++) {
    double d = (double)(shift - 1);
    a[i] = a[i] + d;
  }

  /* firstprivate on target: the device copy is initialised from the host
     (the host value is not printed afterwards, it only matters inside) */
  int seed = 7;
#pragma omp target firstprivate(seed) map(tofrom: b[0:16])
  for (int i = 0; i < 16; i++) {
    seed = (seed * 5 + 1) % 64;
    b[i] += (double)seed;
  }

  double sa = 0.0, sb = 0.0;
  for (int i = 0; i < N; i++) {
    sa += a[i];
    sb += b[i];
  }
  printf("sum(a)=%.2f sum(b)=%.2f shift=%d\n", sa, sb, shift);
  return 0;
}
