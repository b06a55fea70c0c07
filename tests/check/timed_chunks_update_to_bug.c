/* A loop that computes in chunks and times each kernel: after the kernel, `target update to`
 * was written where `from` was meant, so the host's zeros go over the kernel's results and
 * the host then collects zeros. The clock in the loop does not make this a restore: the
 * update drops the results of the kernel just before it, in the same repetition. (HeCBench's
 * pns copies its results so.) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void) {
  const int chunk = 256, chunks = 4;
  int *part = (int *)malloc(chunk * sizeof(int));
  int *all = (int *)malloc(chunk * chunks * sizeof(int));
  for (int i = 0; i < chunk; i++)
    part[i] = 0;
  double elapsed = 0.0;
#pragma omp target data map(alloc: part[0:chunk])
  {
    for (int c = 0; c < chunks; c++) {
      double t0 = (double)clock() / CLOCKS_PER_SEC;
#pragma omp target teams distribute parallel for
      for (int i = 0; i < chunk; i++)
        part[i] = c * chunk + i;
      elapsed += (double)clock() / CLOCKS_PER_SEC - t0;
#pragma omp target update to(part[0:chunk])
      for (int i = 0; i < chunk; i++)
        all[c * chunk + i] = part[i];
    }
  }
  long sum = 0;
  for (int i = 0; i < chunk * chunks; i++)
    sum += all[i];
  printf("sum = %ld%s\n", sum, elapsed >= 0.0 ? "" : "?");
  free(part);
  free(all);
  return 0;
}
