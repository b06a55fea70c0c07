/* A kernel in a project header, as HeCBench's kernels.h files hold them: omplens does not
 * analyse a header function whose text has OpenMP directives, so a call of it is a call it
 * cannot see into. */
#ifndef HALVE_KERNEL_H
#define HALVE_KERNEL_H

static void halve_on_device(double *v, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    v[i] = 0.5 * v[i];
}

#endif
