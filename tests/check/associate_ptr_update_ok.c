// Host data paired with device memory by `omp_target_associate_ptr` is present until
// `omp_target_disassociate_ptr`: the kernel works on that memory (filled first with
// `omp_target_memcpy`) and `target update from` brings its results back. Before, the pairing
// was not modelled: the update was taken for one of data not mapped (a false OMP109 error).
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define N 16

int main(void) {
  int vals[N];
  for (int i = 0; i < N; i++)
    vals[i] = i;
#ifdef _OPENMP
  int dev = omp_get_default_device();
  int *buf = (int *)omp_target_alloc(N * sizeof(int), dev);
  omp_target_memcpy(buf, vals, N * sizeof(int), 0, 0, dev, omp_get_initial_device());
  omp_target_associate_ptr(vals, buf, N * sizeof(int), 0, dev);
#endif
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    vals[i] = vals[i] * 3;
#pragma omp target update from(vals)
#ifdef _OPENMP
  omp_target_disassociate_ptr(vals, dev);
  omp_target_free(buf, dev);
#endif
  int sum = 0;
  for (int i = 0; i < N; i++)
    sum += vals[i];
  printf("%d\n", sum);
  return 0;
}
