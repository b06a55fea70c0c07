/* Oracle test program with a stale-data bug: the kernel updates y[] but y is mapped
 * `to` only (it needed `tofrom`), and then s is computed on the device but never brought
 * back (a missing `target update from`). The sequential build prints the doubled values;
 * the offloaded build prints the stale host copies. */
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(void) {
  double *y = malloc(N * sizeof(double));
  double s[N];
  for (int i = 0; i < N; i++) {
    y[i] = i;
    s[i] = 0.0;
  }
#pragma omp target map(to: y[0:N])
  for (int i = 0; i < N; i++)
    y[i] = 2.0 * y[i];
#pragma omp target data map(alloc: s)
  {
#pragma omp target
    for (int i = 0; i < N; i++)
      s[i] = 1.0 + i;
    /* missing: #pragma omp target update from(s) */
    double hs = 0.0;
    for (int i = 0; i < N; i++)
      hs += s[i];
    printf("host sees s sum=%.1f\n", hs);
  }
  double ys = 0.0;
  for (int i = 0; i < N; i++)
    ys += y[i];
  printf("y sum=%.1f\n", ys);
  free(y);
  return 0;
}
