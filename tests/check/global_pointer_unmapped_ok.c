/* The working version of global_pointer_unmapped_bug.c: the callee maps both global
 * pointers' data with `enter data` and copies the output back with `exit data`. */
#include <stdio.h>
#include <stdlib.h>

#define N 256

double *src;
double *dst;

static void twice(void) {
#pragma omp target enter data map(to: src[0:N]) map(alloc: dst[0:N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    dst[i] = 2.0 * src[i];
#pragma omp target exit data map(release: src[0:N]) map(from: dst[0:N])
}

int main(void) {
  src = (double *)malloc(N * sizeof(double));
  dst = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    src[i] = i;
  twice();
  printf("%.1f\n", dst[N - 1]);
  free(src);
  free(dst);
  return 0;
}
