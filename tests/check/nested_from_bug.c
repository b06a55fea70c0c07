/* Reference-count trap: the kernel maps `b` with `from`, but the enclosing `target data`
 * already mapped it with `to`. Entering the kernel only increments the count and leaving it
 * only decrements it, so the kernel copies nothing back; the region's `to` copies nothing
 * at its end either. The host reads the old values of b. */
#include <stdio.h>

#define N 1024

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = (double)(i % 13);
    b[i] = (double)(i % 5);
  }

#pragma omp target data map(to: a, b)
  {
#pragma omp target teams distribute parallel for map(from: b)
    for (int i = 0; i < N; i++)
      b[i] = b[i] + 3.0 * a[i];
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += b[i];
  printf("sum=%.1f\n", sum);
  return 0;
}
