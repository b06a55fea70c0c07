// `refresh` launches a `nowait` kernel on the global `grid`, reads `grid` itself before
// anything waits (a race inside `refresh`), and returns with the kernel unfinished; `main`
// waits before it reads.
// The oracle runs the task on the encountering thread, where it completes before the race
// can show (with libomp's helper threads the result changes from run to run):
// oracle-env: LIBOMP_USE_HIDDEN_HELPER_TASK=0
#include <stdio.h>

#define N 512
double grid[N];

double refresh(double f) {
#pragma omp target teams distribute parallel for map(tofrom: grid) nowait
  for (int i = 0; i < N; i++)
    grid[i] = f * grid[i] + 1.0;
  double first = grid[0];
  return first;
}

int main(void) {
  for (int i = 0; i < N; i++)
    grid[i] = (double)(i % 3);
  double first = refresh(2.0);
#pragma omp taskwait
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += grid[i];
  printf("first = %.1f, sum = %.1f\n", first, s);
  return 0;
}
