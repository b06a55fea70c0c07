/* Round trip across functions: each phase opens its own `target data` region for the grid,
 * and main calls them back to back. The grid is copied to the host when phase_one ends and
 * copied back to the device when phase_two starts, with no host access in between. */
#include <stdio.h>

#define N 2048

static double grid[N];

static void phase_one(void) {
#pragma omp target data map(tofrom: grid)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      grid[i] = grid[i] + (double)(i % 3);
  }
}

static void phase_two(void) {
#pragma omp target data map(tofrom: grid)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      grid[i] = grid[i] * grid[i];
  }
}

int main(void) {
  for (int i = 0; i < N; i++)
    grid[i] = (double)(i % 5);
  phase_one();
  phase_two();
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += grid[i];
  printf("sum=%.1f\n", sum);
  return 0;
}
