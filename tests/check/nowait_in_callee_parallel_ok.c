// `scale` launches a `nowait` kernel on the global `x` and returns without waiting for it, but
// its call is inside a `parallel` region: the barrier at the region's end waits for every task
// the region made, so the host reads `x` after the kernel is done.
#include <stdio.h>
#define N 1024
double x[N];
void scale(double f) {
#pragma omp target teams distribute parallel for map(tofrom: x) nowait
  for (int i = 0; i < N; i++)
    x[i] = f * x[i];
}
double total(void) {
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += x[i];
  return s;
}
int main(void) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp single
    {
      scale(3.0);
    }
  }
  s = total();
  printf("total = %.1f\n", s);
  return 0;
}
