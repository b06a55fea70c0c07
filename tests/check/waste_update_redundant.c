/* Redundant copy: the region has just copied `a` to the device with map(to:), and the
 * `target update to` right after it copies the same, unchanged data again. */
#include <stdio.h>

#define N 4096

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = (double)(i % 19);

#pragma omp target data map(to: a) map(from: b)
  {
#pragma omp target update to(a)
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      b[i] = a[i] * 3.0 - 2.0;
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += b[i];
  printf("sum=%.1f\n", sum);
  return 0;
}
