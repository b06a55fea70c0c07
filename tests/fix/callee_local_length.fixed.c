/* The data region omplens hoists around the calls in `main` cannot take its section from
 * the callee's kernel, `g[0:m]`: `m` is the callee's local, unknown in `main` (the rewrite
 * did not compile, and the gate refused it). The allocation gives `grid[0:total]`. */
#include <stdio.h>
#include <stdlib.h>

#define STEPS 4

static void half(double *g) {
  int m = 500;
#pragma omp target teams distribute parallel for map(tofrom: g[0:m]) firstprivate(m)
  for (int i = 0; i < m; i++)
    g[i] = g[i] * 0.5;
}

int main(void) {
  int total = 1000;
  double *grid = (double *)malloc(total * sizeof(double));
  for (int i = 0; i < total; i++)
    grid[i] = i;
#pragma omp target data map(tofrom: grid[0:total])
  for (int step = 0; step < STEPS; step++)
    half(grid);
  double s = 0;
  for (int i = 0; i < total; i++)
    s += grid[i];
  printf("%.2f\n", s);
  free(grid);
  return 0;
}
