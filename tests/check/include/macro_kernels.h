/* A project header that defines a macro making OpenMP directives (as PRK's prk_openmp.h
 * does: `OMP_TARGET(x)` expands to `_Pragma("omp target x")`), with an allocation helper
 * and a release helper that launch nothing. */
#ifndef MACRO_KERNELS_H
#define MACRO_KERNELS_H
#include <stdlib.h>

#define PRAGMA(x) _Pragma(#x)
#define OMP_TARGET(x) PRAGMA(omp target x)

static inline double *grid_alloc(int n) { return (double *)malloc(n * sizeof(double)); }
static inline void grid_free(double *p) { free(p); }
#endif
