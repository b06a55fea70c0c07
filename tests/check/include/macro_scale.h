/* A kernel written with the macro of macro_kernels.h; the caller's region maps its data. */
#ifndef MACRO_SCALE_H
#define MACRO_SCALE_H
#include "macro_kernels.h"

static inline void grid_scale(int n, const double *restrict in, double *restrict out) {
  OMP_TARGET(teams distribute parallel for)
  for (int i = 0; i < n; i++)
    out[i] = 2.0 * in[i] + 1.0;
}
#endif
