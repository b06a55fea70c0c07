// Device memory from `omp_target_alloc` has no host copy: the kernel uses its address
// (`is_device_ptr`), and the host gets the
// results with `omp_target_memcpy`, which reads the device's memory, not the host's.
// (Without OpenMP the program uses host memory, for the sequential reference.)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#define N 1024

int main(void) {
  double a[N], out[N];
  for (int i = 0; i < N; i++)
    a[i] = i % 7;
#ifdef _OPENMP
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  double *scratch = (double *)omp_target_alloc(N * sizeof(double), dev);
#else
  double *scratch = (double *)malloc(N * sizeof(double));
#endif
#pragma omp target teams distribute parallel for map(to: a) is_device_ptr(scratch)
  for (int i = 0; i < N; i++)
    scratch[i] = 2.0 * a[i];
#ifdef _OPENMP
  omp_target_memcpy(out, scratch, N * sizeof(double), 0, 0, host, dev);
  omp_target_free(scratch, dev);
#else
  memcpy(out, scratch, N * sizeof(double));
  free(scratch);
#endif
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += out[i];
  printf("sum %.1f\n", s);
  return 0;
}
