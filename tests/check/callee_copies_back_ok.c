/* A solver step runs a kernel on data the caller keeps mapped and copies the result back
 * itself with `target update from`; the caller then reads it on the host. */
#include <stdio.h>
#include <stdlib.h>

#define N 200

static void step(double *r, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    r[i] = r[i] * 0.5 + 1.0;
#pragma omp target update from(r[0:n])
}

int main(void) {
  double *r = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    r[i] = i;
  double total = 0.0;
#pragma omp target data map(to: r[0:N])
  for (int it = 0; it < 3; it++) {
    step(r, N);
    total += r[N - 1];
  }
  printf("%.3f\n", total);
  free(r);
  return 0;
}
