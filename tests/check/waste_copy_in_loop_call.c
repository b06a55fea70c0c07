// Copies repeated in a loop through a call: `relax` maps the grid and the constant weights
// on every call, and main calls it once per sweep. A `target data` region around main's loop
// copies each once; the maps in `relax` then find the data present.
#include <stdio.h>
#include <stdlib.h>

static void relax(double *grid, const double *weight, int n) {
#pragma omp target teams distribute parallel for map(tofrom: grid[0:n]) map(to: weight[0:n])
  for (int i = 0; i < n; i++)
    grid[i] = weight[i] * grid[i] + 1.0;
}

int main(void) {
  const int n = 5000;
  double *grid = malloc(n * sizeof *grid);
  double *weight = malloc(n * sizeof *weight);
  for (int i = 0; i < n; i++) {
    grid[i] = (double)(i % 9);
    weight[i] = 0.5 + 0.25 * (i % 2);
  }
  for (int sweep = 0; sweep < 25; sweep++)
    relax(grid, weight, n);
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += grid[i];
  printf("sum=%.6f\n", sum);
  free(grid);
  free(weight);
  return 0;
}
