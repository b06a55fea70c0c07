/* 3-D seven-point stencil (3DCONV-like): with only the outer loop parallel every access is a
 * plane apart; collapse(3) makes the innermost index k consecutive across threads. */
#include <stdio.h>
#define NX 24
#define NY 20
#define NZ 40

static float a[NX][NY][NZ], b[NX][NY][NZ];

int main(void) {
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      for (int k = 0; k < NZ; k++)
        a[i][j][k] = (float)((i * 5 + j * 3 + k) % 13);
#pragma omp target teams distribute parallel for map(to: a) map(from: b)
  for (int i = 1; i < NX - 1; i++)
    for (int j = 1; j < NY - 1; j++)
      for (int k = 1; k < NZ - 1; k++)
        b[i][j][k] = a[i][j][k] * 0.4f + 0.1f * (a[i - 1][j][k] + a[i + 1][j][k] + a[i][j - 1][k] +
                                               a[i][j + 1][k] + a[i][j][k - 1] + a[i][j][k + 1]);
  double s = 0.0;
  for (int i = 1; i < NX - 1; i++)
    for (int j = 1; j < NY - 1; j++)
      for (int k = 1; k < NZ - 1; k++)
        s += b[i][j][k] * (double)((i + j + k) % 4);
  printf("checksum %.3f\n", s);
  return 0;
}
