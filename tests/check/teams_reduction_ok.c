/* Working twin of teams_reduction_bug.c: with `target` and `teams` separate, the reduction
 * variable must be mapped `tofrom` on the target construct. */
#include <stdio.h>

#define N 8192

int main(void) {
  long a[N];
  for (int i = 0; i < N; i++)
    a[i] = i % 97;

  long sum = 0;
#pragma omp target map(to: a) map(tofrom: sum)
#pragma omp teams distribute parallel for reduction(+: sum)
  for (int i = 0; i < N; i++)
    sum += a[i] * a[i];

  printf("sum=%ld\n", sum);
  return 0;
}
