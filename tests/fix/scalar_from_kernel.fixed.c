/* An array kernel computes a from b, then a plain `#pragma omp target` block (not a loop
 * construct) scans a for its maximum and a count above a threshold into scalars m and count
 * that the host prints. Implicitly m and count are firstprivate: the writes are lost. */
#include <stdio.h>

#define N 2048

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++)
    b[i] = (double)((i * 37) % 101);

  double m = -1.0e9;
  int count = 0;
#pragma omp target data map(to: b) map(from: a)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      a[i] = 0.5 * b[i] - 10.0;

#pragma omp target map(tofrom: count, m)
    {
      for (int i = 0; i < N; i++) {
        if (a[i] > m)
          m = a[i];
        if (a[i] > 20.0)
          count++;
      }
    }
  }

  printf("max=%.6f count=%d a[3]=%.6f a[%d]=%.6f\n", m, count, a[3], N - 1, a[N - 1]);
  return 0;
}
