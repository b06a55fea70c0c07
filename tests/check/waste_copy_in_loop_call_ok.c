// A callee that maps its data on every call, called in a loop that needs those copies: the
// host changes the grid between calls (so it must go to the device each time) and reads the
// result after each (so it must come back). Nothing to hoist.
#include <stdio.h>
#include <stdlib.h>

static void relax(double *grid, int n) {
#pragma omp target teams distribute parallel for map(tofrom: grid[0:n])
  for (int i = 0; i < n; i++)
    grid[i] = 0.5 * grid[i] + 1.0;
}

int main(void) {
  const int n = 5000;
  double *grid = malloc(n * sizeof *grid);
  for (int i = 0; i < n; i++)
    grid[i] = (double)(i % 9);
  double trace = 0.0;
  for (int sweep = 0; sweep < 25; sweep++) {
    grid[sweep] += 1.0;
    relax(grid, n);
    trace += grid[sweep];
  }
  printf("trace=%.6f\n", trace);
  free(grid);
  return 0;
}
