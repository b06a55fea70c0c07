// `omp_target_is_present` asks whether an address is mapped and `omp_free` releases
// memory: neither touches the data. The kernel's results in `p` are scratch, never read on
// the host, so deleting them without a copy back loses nothing.
// (Without OpenMP the program uses malloc and free, for the sequential reference.)
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

int main(void) {
  int n = 512;
#ifdef _OPENMP
  double *p = (double *)omp_alloc(n * sizeof(double), omp_default_mem_alloc);
#else
  double *p = (double *)malloc(n * sizeof(double));
#endif
  double total = 0.0;
#pragma omp target enter data map(alloc: p[0:n])
#pragma omp target teams distribute parallel for reduction(+: total)
  for (int i = 0; i < n; i++) {
    p[i] = 0.5 * i;
    total += p[i];
  }
#pragma omp target exit data map(delete: p[0:n])
  int still = 0;
#ifdef _OPENMP
  still = omp_target_is_present(p, omp_get_default_device());
  omp_free(p, omp_default_mem_alloc);
#else
  free(p);
#endif
  printf("total %.1f present %d\n", total, still);
  return 0;
}
