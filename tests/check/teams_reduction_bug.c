/* Reduction on a separate `teams` construct: only a combined `target teams ... reduction`
 * maps the reduction variable tofrom implicitly. Here `target` and `teams` are separate, so
 * `sum` is firstprivate on the target region and the reduced value is lost. */
#include <stdio.h>

#define N 8192

int main(void) {
  long a[N];
  for (int i = 0; i < N; i++)
    a[i] = i % 97;

  long sum = 0;
#pragma omp target map(to: a)
#pragma omp teams distribute parallel for reduction(+: sum)
  for (int i = 0; i < N; i++)
    sum += a[i] * a[i];

  printf("sum=%ld\n", sum);
  return 0;
}
