// The host fills all of `a`; the device gets it a block at a time: before the loop the
// first block, then in each step the next one (the section's start advances). Every copy
// moves elements the device does not hold yet: none is redundant, and removing one would
// leave a kernel reading uninitialized device memory.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1024, blk = 256;
  double *a = malloc(n * sizeof(double));
  double *c = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp target data map(alloc: a[0:n]) map(from: c[0:n])
  {
#pragma omp target update to(a[0:blk])
    for (int start = 0; start < n; start += blk) {
#pragma omp target teams distribute parallel for
      for (int i = start; i < start + blk; ++i)
        c[i] = 2.0 * a[i];
      if (start + blk < n) {
#pragma omp target update to(a[start + blk:blk])
      }
    }
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += c[i];
  printf("sum = %.1f (want %.1f)\n", sum, (double)n * (n - 1));
  free(a);
  free(c);
  return 0;
}
