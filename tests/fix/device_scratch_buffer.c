/* Kernels read a host array and write a scratch buffer from `omp_target_alloc`, which the
 * host reads back with `omp_target_memcpy`. The host array needs a map; the scratch buffer
 * is device memory and must not get one (mapping it would make the runtime treat a device
 * address as host memory). Without OpenMP the program uses host memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

int main(void) {
  const int n = 1024;
  double *a = (double *)malloc(n * sizeof(double));
  double *out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = i % 7;
#ifdef _OPENMP
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  double *scratch = (double *)omp_target_alloc(n * sizeof(double), dev);
#else
  double *scratch = (double *)malloc(n * sizeof(double));
#endif
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    scratch[i] = 2.0 * a[i];
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    scratch[i] += a[i];
#ifdef _OPENMP
  omp_target_memcpy(out, scratch, n * sizeof(double), 0, 0, host, dev);
  omp_target_free(scratch, dev);
#else
  memcpy(out, scratch, n * sizeof(double));
  free(scratch);
#endif
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += out[i];
  printf("sum %.1f\n", s);
  free(a);
  free(out);
  return 0;
}
