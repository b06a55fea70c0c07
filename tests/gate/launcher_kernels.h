/* Kernels in a project header, as HeCBench's kernels.h files hold them: omplens does not
 * analyse a header function whose body has OpenMP directives. */
#ifndef LAUNCHER_KERNELS_H
#define LAUNCHER_KERNELS_H

static void square_on_device(float *x, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    x[i] = x[i] * x[i];
}

#endif
