// A host task that depends on a `nowait` kernel (`depend(in: a)` after `depend(out: a)`)
// starts only when the kernel's task has finished, its copy back included: reading `a` in
// it is no race.
#include <stdio.h>
#define N 256

int main(void) {
  double a[N];
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp target teams distribute parallel for map(tofrom: a) depend(out: a) nowait
  for (int i = 0; i < N; i++)
    a[i] = 2.0 * a[i];
#pragma omp task depend(in: a) shared(a, sum)
  for (int i = 0; i < N; i++)
    sum += a[i];
#pragma omp taskwait
  printf("sum %.1f\n", sum);
  return 0;
}
