/* A fixed-size array mapped in part: the kernel sums all N elements of `x`, but the clause
 * maps only its first half, so the device reads elements it never received. */
#include <stdio.h>

#define N 1000

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = (double)(i % 10);
  double s = 0.0;
#pragma omp target map(to: x[0:N / 2]) map(tofrom: s)
  for (int i = 0; i < N; i++)
    s += x[i];
  printf("s=%.1f\n", s);
  return 0;
}
