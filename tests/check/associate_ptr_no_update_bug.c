// Host data paired with device memory by `omp_target_associate_ptr`: the kernel triples the
// device copy, but nothing copies it back before `omp_target_disassociate_ptr` ends the
// pairing, so the host sums its old values (120 instead of 360).
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
