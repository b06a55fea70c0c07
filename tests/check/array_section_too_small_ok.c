/* Working twin of array_section_too_small_bug.c: the kernel sums only the first half of the
 * array, which is what the clause maps. */
#include <stdio.h>

#define N 1000

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = (double)(i % 10);
  double s = 0.0;
#pragma omp target map(to: x[0:N / 2]) map(tofrom: s)
  for (int i = 0; i < N / 2; i++)
    s += x[i];
  printf("s=%.1f\n", s);
  return 0;
}
