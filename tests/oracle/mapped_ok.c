/* Oracle test program: correctly mapped. A target data region keeps a[] and b[] on the
 * device across two kernels; the host reads b[] in between (target update from) and
 * changes a[] (target update to). The kernels use the pointers implicitly, so the runtime
 * must find them present ("Mapping exists (implicit) ... Name=a").
 * Expected transfers: to device a (2048 B) + update to a (2048 B);
 *                     from device update from b (2048 B) + region exit b (2048 B). */
#include <stdio.h>
#include <stdlib.h>

#define N 256

int main(void) {
  double *a = malloc(N * sizeof(double));
  double *b = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = 0.0;
  }
  double mid = 0.0;
#pragma omp target data map(to: a[0:N]) map(from: b[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      b[i] = 2.0 * a[i];
#pragma omp target update from(b[0:N])
    for (int i = 0; i < N; i++) {
      mid += b[i];
      a[i] = b[i] + 1.0;
    }
#pragma omp target update to(a[0:N])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      b[i] = 0.5 * a[i];
  }
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += b[i];
  printf("mid=%.1f sum=%.1f b[7]=%.1f\n", mid, sum, b[7]);
  free(a);
  free(b);
  return 0;
}
