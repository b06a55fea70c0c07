// A grid of rows x cols values, indexed through a macro as in most stencil codes. The
// device relaxes it inside a `target data` region that maps it `to` (no copy back); the
// host then sets every element again in a nest of loops over the rows and the columns
// before it reads it. Were either loop to run zero times, the grid would hold no element:
// no read of a stale copy is possible on any path.
#include <stdio.h>
#include <stdlib.h>

#define at(r, c) (r) * cols + (c)

int main(int argc, char **argv) {
  const int rows = argc > 1 ? atoi(argv[1]) : 64;
  const int cols = argc > 2 ? atoi(argv[2]) : 48;
  const int bytes = sizeof(double) * rows * cols;
  double *grid = (double *)malloc(bytes);
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
  // Reset on the host for the reference run.
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) {
      grid[at(r, c)] = 1.0;
      if (r == c)
        grid[at(r, c)] = 2.0;
    }
  }
  double sum = 0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      sum += grid[at(r, c)];
  printf("sum = %.1f\n", sum);
  free(grid);
  return 0;
}
