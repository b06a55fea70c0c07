/* A 2-D Jacobi sweep in a time loop: one `target data` region around the loop maps the grid
 * `tofrom` and the new grid `alloc` (written on the device before it is read). No copy
 * happens inside the loop. */
#include <stdio.h>

#define NX 64
#define NY 64
#define STEPS 20

int main(void) {
  double g[NX][NY], gn[NX][NY];
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      g[i][j] = (i == 0 || j == 0) ? 16.0 : 0.0;

#pragma omp target data map(tofrom: g) map(alloc: gn)
  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < NX; i++)
      for (int j = 0; j < NY; j++) {
        int up = (i + NX - 1) % NX, down = (i + 1) % NX;
        int left = (j + NY - 1) % NY, right = (j + 1) % NY;
        gn[i][j] = 0.25 * (g[up][j] + g[down][j] + g[i][left] + g[i][right]);
      }
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < NX; i++)
      for (int j = 0; j < NY; j++)
        g[i][j] = gn[i][j];
  }

  double sum = 0.0;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      sum += g[i][j] * (double)((i * j) % 3);
  printf("weighted=%.6f g[1][1]=%.6f\n", sum, g[1][1]);
  return 0;
}
