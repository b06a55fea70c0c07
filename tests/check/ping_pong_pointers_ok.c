/* Jacobi-style ping-pong: the host swaps two local pointers between kernels inside a data
 * region that maps both buffers. Each kernel reads through one pointer and writes through
 * the other; which buffer each names changes every step. The results come back at the end. */
#include <stdio.h>
#include <stdlib.h>

#define N 128
#define STEPS 6

int main(void) {
  double *a = (double *)malloc(N * sizeof(double));
  double *b = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    a[i] = b[i] = (double)i;
#pragma omp target data map(tofrom: a[0:N], b[0:N])
  {
    double *src = a, *dst = b;
    for (int s = 0; s < STEPS; s++) {
#pragma omp target teams distribute parallel for
      for (int i = 1; i < N - 1; i++)
        dst[i] = 0.5 * (src[i - 1] + src[i + 1]);
      double *t = src;
      src = dst;
      dst = t;
    }
  }
  printf("%.3f %.3f\n", a[N / 2], b[N / 2]);
  free(a);
  free(b);
  return 0;
}
