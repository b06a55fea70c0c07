/* The callee's kernel runs to the global `m` (1000); `main` has a local `m` (10) of its own.
 * The region omplens hoists into `main` must not write the callee's `g[0:m]` there, where `m`
 * is the local: it mapped 10 elements of 1000 (written, exit 0). The allocation gives
 * `grid[0:1000]`. */
#include <stdio.h>
#include <stdlib.h>

#define STEPS 4

int m = 1000;

static void half(double *g) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < m; i++)
    g[i] = g[i] * 0.5;
}

int main(void) {
  int m = 10;
  double *grid = (double *)malloc(1000 * sizeof(double));
  for (int i = 0; i < 1000; i++)
    grid[i] = i;
#pragma omp target data map(tofrom: grid[0:1000])
  for (int step = 0; step < STEPS; step++)
    half(grid);
  double s = 0;
  for (int i = 0; i < 1000; i++)
    s += grid[i];
  printf("%.2f %d\n", s, m);
  free(grid);
  return 0;
}
