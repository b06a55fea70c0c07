// A kernel that uses host memory nothing maps, after the program asked
// `omp_target_is_accessible` whether the device can reach it (and skips the kernel when it
// cannot): the pointer's data is the host's own, by the program's check. Before, the kernel
// drew a certain OMP103 error as if the guard were not there. (Analysed only: clang-19's
// runtime does not define `omp_target_is_accessible`, so the oracle cannot build it.)
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define N 256

int main(void) {
  int *a = (int *)malloc(N * sizeof(int));
  int reachable = 1;
#ifdef _OPENMP
  reachable = omp_target_is_accessible(a, N * sizeof(int), omp_get_default_device());
#endif
  if (reachable) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      a[i] = 2 * i;
  } else {
    for (int i = 0; i < N; i++)
      a[i] = 2 * i;
  }
  long sum = 0;
  for (int i = 0; i < N; i++)
    sum += a[i];
  printf("%ld\n", sum);
  free(a);
  return 0;
}
