// As host_reset_grid_ok.c, but the host resets only the first half of each row before it
// reads the whole grid: the other half is the stale host copy the device never sent back.
#include <stdio.h>
#include <stdlib.h>

#define at(r, c) (r) * cols + (c)

int main(int argc, char **argv) {
  const int rows = argc > 1 ? atoi(argv[1]) : 64;
  const int cols = argc > 2 ? atoi(argv[2]) : 48;
  double *grid = (double *)malloc(sizeof(double) * rows * cols);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      grid[at(r, c)] = r + c;
#pragma omp target data map(to: grid[0:rows * cols])
  {
#pragma omp target teams distribute parallel for collapse(2)
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++)
        grid[at(r, c)] = 0.5 * grid[at(r, c)];
  }
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols / 2; c++)
      grid[at(r, c)] = 1.0;
  double sum = 0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      sum += grid[at(r, c)];
  printf("sum = %.1f\n", sum);
  free(grid);
  return 0;
}
