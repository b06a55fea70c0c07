/* A kernel writes a, the host reads a (prints a checksum), then a second kernel updates a
 * again and the host reads it at the end. b is a read-only input. Needs one copy of a back
 * between the kernels (a `target update from`) and none of a to the device. */
#include <stdio.h>

#define N 2048

static double checksum(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * (double)(i % 3 + 1);
  return s;
}

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++)
    b[i] = (double)(i % 10);

#pragma omp target data map(to: b) map(from: a)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      a[i] = 2.0 * b[i] + 1.0;

#pragma omp target update from(a)
    printf("after first kernel: checksum=%.6f a[5]=%.6f\n", checksum(a, N), a[5]);

#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      a[i] = a[i] * b[i] - 0.5 * a[i];
  }

  printf("after second kernel: checksum=%.6f a[5]=%.6f\n", checksum(a, N), a[5]);
  return 0;
}
