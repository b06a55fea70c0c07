// Exercises 2-D data: fixed `double a[N][M]` arrays and malloced `double *a` indexed a[i*m+j] with sizes held in variables.
#include <stdio.h>
#include <stdlib.h>

#define NR 24
#define NC 32

static void transpose_flat(const double *src, double *dst, int rows, int cols) {
#pragma omp target teams distribute parallel for collapse(2) map(to: src[0:rows*cols]) map(from: dst[0:rows*cols])
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      dst[j * rows + i] = src[i * cols + j];
}

int main(void) {
  double grid[NR][NC];
  double out[NR][NC];
  int rows = 20, cols = 30;
  double *flat = (double *)malloc(sizeof(double) * rows * cols);
  double *flat_t = (double *)malloc(sizeof(double) * rows * cols);

  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NC; j++)
      grid[i][j] = (double)((i * 3 + j) % 10);
  for (int i = 0; i < rows * cols; i++)
    flat[i] = (double)(i % 7);

  /* 5-point average on the fixed 2-D array */
#pragma omp target teams distribute parallel for collapse(2) map(to: grid) map(from: out)
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NC; j++) {
      if (i == 0 || j == 0 || i == NR - 1 || j == NC - 1)
        out[i][j] = grid[i][j];
      else
        out[i][j] = 0.2 * (grid[i][j] + grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + grid[i][j + 1]);
    }

  /* row sums of the flat array */
  double rowsum[64];
#pragma omp target teams distribute map(to: flat[0:rows*cols]) map(from: rowsum[0:rows])
  for (int i = 0; i < rows; i++) {
    double s = 0.0;
    for (int j = 0; j < cols; j++)
      s += flat[i * cols + j];
    rowsum[i] = s;
  }

  transpose_flat(flat, flat_t, rows, cols);

  double so = 0.0, sr = 0.0;
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < NC; j++)
      so += out[i][j];
  for (int i = 0; i < rows; i++)
    sr += rowsum[i];
  printf("sum(out)=%.3f sum(rowsum)=%.1f flat_t[1]=%.1f flat_t[rows]=%.1f\n", so, sr, flat_t[1], flat_t[rows]);
  free(flat);
  free(flat_t);
  return 0;
}
