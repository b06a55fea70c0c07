/* A nest whose middle loop carries a dependence (w[i][j-1] feeds w[i][j]): collapse(2) over
 * i and j is unsafe, but k is independent and holds the contiguous index, so k moves up and
 * the i-k nest is collapsed (the paper's Figure 12 case). */
#include <stdio.h>
#define M 40

static double w[M][M][M];

int main(void) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < M; k++)
        w[i][j][k] = (double)((i + 2 * j + 3 * k) % 7) * 0.5;
#pragma omp target teams distribute parallel for map(tofrom: w)
  for (int i = 0; i < M; i++)
    for (int j = 1; j < M; j++)
      for (int k = 0; k < M; k++)
        w[i][j][k] = 0.5 * w[i][j - 1][k] + w[i][j][k];
  double s = 0.0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < M; k++)
        s += w[i][j][k] * (double)((i + j + k) % 3 + 1);
  printf("checksum %.4f\n", s);
  return 0;
}
