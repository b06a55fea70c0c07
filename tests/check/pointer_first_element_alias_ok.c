// `double *p = &a[0];` names `a`'s storage: inside the region that maps `a`, the kernel's
// `map(tofrom: p[0:N])` finds it present, and the kernel's writes through `p` are `a`'s,
// copied back at the region's end.
#include <stdio.h>
#define N 100

int main(void) {
  double a[N];
  double *p = &a[0];
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp target data map(tofrom: a)
  {
#pragma omp target map(tofrom: p[0:N])
    for (int i = 0; i < N; i++)
      p[i] = 2.0 * p[i] + 1.0;
  }
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += a[i];
  printf("sum %.1f\n", s);
  return 0;
}
