/* The gate refuses omplens's rewrite here: the data region omplens would hoist around the
 * calls in `main` takes its section from the callee's kernel, `g[0:m]`, where `m` is the
 * callee's local, so the rewritten file does not compile (`use of undeclared identifier
 * 'm'`). Nothing is written; the original compiles and runs. (A known synthesis gap of
 * issue 16: a callee's section must be in the caller's names, or come from the allocation.) */
#include <stdio.h>
#include <stdlib.h>

#define STEPS 4

static void half(double *g) {
  int m = 500;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < m; i++)
    g[i] = g[i] * 0.5;
}

int main(void) {
  int total = 1000;
  double *grid = (double *)malloc(total * sizeof(double));
  for (int i = 0; i < total; i++)
    grid[i] = i;
  for (int step = 0; step < STEPS; step++)
    half(grid);
  double s = 0;
  for (int i = 0; i < total; i++)
    s += grid[i];
  printf("%.2f\n", s);
  free(grid);
  return 0;
}
