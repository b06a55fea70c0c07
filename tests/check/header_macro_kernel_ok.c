/* A kernel in a project header written through a macro (of another header) that makes
 * `_Pragma("omp target ...")`, called inside the caller's `target data` region. Before: the
 * kernel's function was taken for host code (its kernel unseen), so its write of `out` was
 * a host write inside the region and the read after it a false OMP101 error; and
 * `grid_free`, in the header that defines the macro, was taken for a kernel launcher (a gap
 * for `fix`). */
#include <stdio.h>
#include "include/macro_scale.h"

int main(void) {
  int n = 1000;
  double *in = grid_alloc(n);
  double *out = grid_alloc(n);
  for (int i = 0; i < n; i++) {
    in[i] = i % 7;
    out[i] = 0.0;
  }
#pragma omp target data map(to: in[0:n]) map(from: out[0:n])
  { grid_scale(n, in, out); }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += out[i];
  printf("%.1f\n", s);
  grid_free(in);
  grid_free(out);
  return 0;
}
