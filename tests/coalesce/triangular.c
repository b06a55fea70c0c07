/* Unsafe: a triangular nest (j < i) is not rectangular, so collapse is not offered, although
 * the row-apart accesses are reported. A second loop, already collapsed and coalesced, has no
 * finding. */
#include <stdio.h>
#define N 64

static double L[N][N], x[N][N];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      L[i][j] = (double)((i * 5 + j) % 9);
      x[i][j] = 0.0;
    }
#pragma omp target teams distribute parallel for map(to: L) map(tofrom: x)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i; j++)
      x[i][j] = 2.0 * L[i][j] + 1.0;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: x)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x[i][j] = x[i][j] * 0.5 + 1.0;
  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += x[i][j] * (double)((i + j) % 3 + 1);
  printf("checksum %.4f\n", s);
  return 0;
}
