// A `target update` through a second pointer into a mapped array (`row = grid + W`, one row
// further) moves that part of the array's data: the host changes the second row, copies it
// over with `update to(row[0:W])`, and the kernel reads the new values. Before, `row` was
// taken for data of its own and the kernel's read for a read of a stale copy (a false
// OMP102 error).
#include <stdio.h>
#include <stdlib.h>

#define W 8
#define H 4

int main(void) {
  int *grid = (int *)malloc(W * H * sizeof(int));
  for (int i = 0; i < W * H; i++)
    grid[i] = i;
#pragma omp target enter data map(to: grid[0:W * H])
  for (int j = 0; j < W; j++)
    grid[W + j] = 100 + j;
  int *row = grid + W;
#pragma omp target update to(row[0:W])
  int sum = 0;
#pragma omp target map(tofrom: sum)
  for (int j = 0; j < W; j++)
    sum += grid[W + j];
#pragma omp target exit data map(delete: grid[0:W * H])
  printf("%d\n", sum);
  free(grid);
  return 0;
}
