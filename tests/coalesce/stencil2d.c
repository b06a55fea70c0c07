/* 2-D five-point stencil over row-major arrays: the parallel loop is the row loop, so the
 * threads of a warp are a row apart; collapse(2) gives them consecutive columns. */
#include <stdio.h>
#define N 96

static double u[N][N], v[N][N];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      u[i][j] = (double)((i * 7 + j * 3) % 11);
#pragma omp target teams distribute parallel for map(to: u) map(tofrom: v)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) - u[i][j];
  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += v[i][j] * (double)((i + 2 * j) % 5);
  printf("checksum %.4f\n", s);
  return 0;
}
