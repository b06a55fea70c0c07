/* Ping-pong buffers: each step reads one and writes the other, then the pointers swap. The
 * region maps `a` to the device only, `b` both ways, by the names they have at its start;
 * after an even number of swaps the results are in the data `a` names, which is never
 * copied back: the host reads stale data (on some paths: how many swaps run is not known). */
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define STEPS 20

#pragma omp declare target
static double lap(const double *g, int x) { return g[x - 1] - 2.0 * g[x] + g[x + 1]; }
#pragma omp end declare target

static void step(const double *g, double *out) {
#pragma omp target teams distribute parallel for
  for (int x = 0; x < N; x++) {
    if (x > 0 && x < N - 1)
      out[x] = g[x] + 0.25 * lap(g, x);
    else
      out[x] = g[x];
  }
}

int main(void) {
  double *a = (double *)malloc(sizeof(double) * N);
  double *b = (double *)malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++)
    a[i] = (i % 64 == 0) ? 64.0 : 0.0;
#pragma omp target data map(to: a[0:N]) map(tofrom: b[0:N])
  for (int t = 0; t < STEPS; t++) {
    step(a, b);
    double *s = a;
    a = b;
    b = s;
  }
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += a[i];
  printf("%.6f\n", sum);
  free(a);
  free(b);
  return 0;
}
