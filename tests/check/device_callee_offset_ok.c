/* Inside a kernel, a `declare target` function writes two results through a pointer that the
 * kernel offsets into a mapped array (`pair + 2*i`): the writes are the array's, and the
 * copy back at the end of the kernel brings them to the host. */
#include <stdio.h>
#include <stdlib.h>

#define N 100

#pragma omp declare target
static void split(double x, double *out) {
  out[0] = x * 0.5;
  out[1] = x * 1.5;
}
#pragma omp end declare target

int main(void) {
  double *pairs = (double *)malloc(2 * N * sizeof(double));
#pragma omp target teams distribute parallel for map(from: pairs[0:2*N])
  for (int i = 0; i < N; i++)
    split((double)i, pairs + 2 * i);
  printf("%.1f %.1f\n", pairs[0], pairs[2 * N - 1]);
  free(pairs);
  return 0;
}
