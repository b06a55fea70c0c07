/* Callees take the grid with array-declarator parameters (`double g[][W]`), which are
 * pointers: their kernels read and write the caller's mapped grid. */
#include <stdio.h>
#include <stdlib.h>

#define H 16
#define W 16

static void relax(double dst[][W], double src[][W]) {
#pragma omp target teams distribute parallel for collapse(2)
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      dst[i][j] = 0.5 * src[i][j];
}

static void copy_back(double dst[][W], double src[][W]) {
#pragma omp target teams distribute parallel for collapse(2)
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      dst[i][j] = src[i][j];
}

int main(void) {
  double(*cur)[W] = malloc(sizeof(double[H][W]));
  double(*tmp)[W] = malloc(sizeof(double[H][W]));
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      cur[i][j] = i + j;
#pragma omp target data map(tofrom: cur[0:H][0:W]) map(alloc: tmp[0:H][0:W])
  for (int s = 0; s < 3; s++) {
    relax(tmp, cur);
    copy_back(cur, tmp);
  }
  printf("%.4f\n", cur[H - 1][W - 1]);
  free(cur);
  free(tmp);
  return 0;
}
