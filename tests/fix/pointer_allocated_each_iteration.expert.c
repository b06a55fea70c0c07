/* A pointer declared before the time loop and allocated again in each iteration, by a macro
 * (HeCBench's wsm5): a region around the loop would name the storage it held before the
 * first allocation. The region goes inside the loop, after the allocation. */
#include <stdio.h>
#include <stdlib.h>
#define ALLOC(A, s)                                                                            \
  A = (float *)malloc((s) * sizeof(float));                                                    \
  for (int i = 0; i < s; i++)                                                                  \
    A[i] = 0.5f;
static void twice(float *a, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    a[i] *= 2;
}
int main(void) {
  int n = 1000;
  float s = 0;
  float *a;
  for (int r = 0; r < 3; r++) {
    ALLOC(a, n);
#pragma omp target data map(tofrom: a[0:n])
    {
      twice(a, n);
      twice(a, n);
    }
    for (int i = 0; i < n; i++)
      s += a[i];
    free(a);
  }
  printf("%g\n", s);
  return 0;
}
