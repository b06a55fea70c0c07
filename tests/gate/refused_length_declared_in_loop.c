/* The gate refuses omplens's rewrite here: the data region omplens would hoist out of the
 * time-step loop maps `grid[0:active]`, but `active` is declared inside the loop, so the
 * rewritten file does not compile (`use of undeclared identifier 'active'`). Nothing is
 * written; the original compiles and runs. (A known synthesis gap of issue 16: the length
 * should come from the allocation, `total`.) */
#include <stdio.h>
#include <stdlib.h>

#define STEPS 4

int main(void) {
  int total = 1000;
  double *grid = (double *)malloc(total * sizeof(double));
  for (int i = 0; i < total; i++)
    grid[i] = i;
  for (int step = 0; step < STEPS; step++) {
    int active = total / 2;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < active; i++)
      grid[i] = grid[i] * 0.5;
  }
  double s = 0;
  for (int i = 0; i < total; i++)
    s += grid[i];
  printf("%.2f\n", s);
  free(grid);
  return 0;
}
