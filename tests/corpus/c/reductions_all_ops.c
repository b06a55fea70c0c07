// Exercises reduction(+, *, max, min, &&, ||) on combined target constructs; scalar results are read by the host.
#include <stdio.h>

#define N 300

int main(void) {
  double a[N];
  int flags[N];
  for (int i = 0; i < N; i++) {
    a[i] = (double)((i * 37) % 101) - 50.0;
    flags[i] = (i % 11) != 5;
  }

  double sum = 0.0;
  double prod = 1.0;
  double mx = -1.0e30, mn = 1.0e30;
  int all_set = 1, any_set = 0;
  long count = 0;

#pragma omp target teams distribute parallel for map(to: a) reduction(+: sum, count)
  for (int i = 0; i < N; i++) {
    sum += a[i];
    if (a[i] > 0.0)
      count++;
  }

#pragma omp target teams distribute parallel for map(to: a) reduction(*: prod)
  for (int i = 0; i < 20; i++)
    prod *= (a[i] > 0.0) ? 2.0 : 1.0;

#pragma omp target teams distribute parallel for map(to: a) reduction(max: mx) reduction(min: mn)
  for (int i = 0; i < N; i++) {
    mx = a[i] > mx ? a[i] : mx;
    mn = a[i] < mn ? a[i] : mn;
  }

#pragma omp target teams distribute parallel for map(to: flags) reduction(&&: all_set) reduction(||: any_set)
  for (int i = 0; i < N; i++) {
    all_set = all_set && flags[i];
    any_set = any_set || !flags[i];
  }

  printf("sum=%.1f count=%ld prod=%.1f max=%.1f min=%.1f all=%d any=%d\n",
         sum, count, prod, mx, mn, all_set, any_set);
  return 0;
}
