/* Kernels write an array through local pointers derived from it: `row = &grid[k * n]` on the
 * host, and `cell = row + i` inside the kernel. The writes are grid's: the copy back at the
 * end of the region brings them home, so the host read is right. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 32, rows = 4;
  float *grid = (float *)malloc(rows * n * sizeof(float));
#pragma omp target data map(from: grid[0:rows*n])
  {
    for (int k = 0; k < rows; k++) {
      float *row = &grid[k * n];
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) {
        float *cell = row + i;
        *cell = (float)(k * n + i);
      }
    }
  }
  printf("%.1f\n", grid[rows * n - 1]);
  free(grid);
  return 0;
}
