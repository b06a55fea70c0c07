/* Working twin of host_write_stale_bug.c: after the host changes `a` inside the region, a
 * `target update to` refreshes the device copy before the second kernel reads it. */
#include <stdio.h>

#define N 1000

int main(void) {
  int a[N], b[N], c[N];
  for (int i = 0; i < N; i++)
    a[i] = i % 50;

#pragma omp target data map(to: a) map(from: b, c)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      b[i] = a[i] + 1;

    for (int i = 0; i < N; i++)
      a[i] = 3 * a[i];
#pragma omp target update to(a)

#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      c[i] = a[i] - 1;
  }

  long sb = 0, sc = 0;
  for (int i = 0; i < N; i++) {
    sb += b[i];
    sc += c[i];
  }
  printf("sb=%ld sc=%ld\n", sb, sc);
  return 0;
}
