/* The data region omplens hoists out of the time-step loop cannot name `grid[0:active]`:
 * `active` is declared inside the loop, so the clause would not compile. The section comes
 * from the allocation instead, `grid[0:total]`. */
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
