/* 2-D arrays of known size: the input is mapped `to`, the output `from`, and the nested
 * loop is collapsed. */
#include <stdio.h>

#define ROWS 64
#define COLS 96

int main(void) {
  double img[ROWS][COLS], grad[ROWS][COLS];
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      img[i][j] = (double)((i * 3 + j * 7) % 16);

#pragma omp target teams distribute parallel for collapse(2) map(to: img) map(from: grad)
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      grad[i][j] = img[i][(j + 1) % COLS] - img[i][j] + img[(i + 1) % ROWS][j];

  double sum = 0.0;
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      sum += grad[i][j] * (double)((i + j) % 5);
  printf("sum=%.1f\n", sum);
  return 0;
}
