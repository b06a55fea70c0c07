/* Under `requires unified_shared_memory` a map clause need not copy: the runtime may (and
 * clang's does) use the host's memory on the device. The kernel writes data mapped `to` and
 * the host reads the results; without the requires this would be a stale host read. */
#include <stdio.h>
#include <stdlib.h>

#pragma omp requires unified_shared_memory

#define N 300

static void ramp(double *v, int n) {
#pragma omp target teams distribute parallel for map(to: v[0:n])
  for (int i = 0; i < n; i++)
    v[i] = 0.5 * i;
}

int main(void) {
  double *v = (double *)calloc(N, sizeof(double));
  ramp(v, N);
  double last = v[N - 1];
  printf("last=%.1f\n", last);
  free(v);
  return 0;
}
