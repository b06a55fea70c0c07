/* Kernels in a project header written with `_Pragma` (in a macro, as some projects spell
 * their offload loops): omplens lowers header bodies with their `#pragma omp` directives but
 * does not read `_Pragma`, so it cannot see what this kernel does. */
#ifndef LAUNCHER_KERNELS_H
#define LAUNCHER_KERNELS_H

#define OFFLOAD_LOOP _Pragma("omp target teams distribute parallel for")

static void square_on_device(float *x, int n) {
  OFFLOAD_LOOP
  for (int i = 0; i < n; i++)
    x[i] = x[i] * x[i];
}

#endif
