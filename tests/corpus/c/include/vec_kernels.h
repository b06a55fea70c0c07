/* Small helper header for header_kernels.c: function bodies with offload kernels live here. */
#ifndef OMPLENS_CORPUS_VEC_KERNELS_H
#define OMPLENS_CORPUS_VEC_KERNELS_H

static inline void vec_axpy(double *y, const double *x, double a, int n) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

static inline double vec_dot(const double *x, const double *y, int n) {
  double s = 0.0;
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

#endif
