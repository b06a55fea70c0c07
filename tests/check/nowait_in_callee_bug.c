// `scale` launches a `nowait` kernel on the global `x` and returns without waiting for it;
// its caller then sums `x` on the host (in `total`) before its `taskwait`: the copy back of
// `x` may not have happened yet.
// The oracle runs the task on the encountering thread, where it completes before the race
// can show (with libomp's helper threads the result changes from run to run):
// oracle-env: LIBOMP_USE_HIDDEN_HELPER_TASK=0
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
  for (int i = 0; i < N; i++)
    x[i] = (double)(i % 5);
  scale(3.0);
  double s = total();
#pragma omp taskwait
  printf("total = %.1f\n", s);
  return 0;
}
