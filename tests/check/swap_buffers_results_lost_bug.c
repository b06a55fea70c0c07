// Two buffers exchanged through a temporary after every step, both mapped `to` by the
// region around the loop: each step's kernel writes `b` from `a`, then the pointers swap.
// Nothing copies the device's results back, so after the region `a` (the buffer the last
// step wrote) still holds the host's initial values.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000, steps = 4;
  double *a = malloc(n * sizeof(double));
  double *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    a[i] = i;
    b[i] = 0.0;
  }
#pragma omp target data map(to: a[0:n]) map(to: b[0:n])
  {
    for (int s = 0; s < steps; ++s) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        b[i] = a[i] + 1.0;
      double *t = a;
      a = b;
      b = t;
    }
  }
  printf("a[7] = %.1f (want 11.0)\n", a[7]);
  free(a);
  free(b);
  return 0;
}
