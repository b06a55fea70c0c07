/* Unsafe: the nest accumulates into a scalar declared outside it (with a reduction), and a
 * second nest writes every row's element through one column (all j write out[i][0]): neither
 * may be collapsed, both are reported uncoalesced. */
#include <stdio.h>
#define N 64

static double m[N][N], out[N][N];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      m[i][j] = (double)((i + 3 * j) % 10);
  double total = 0.0;
#pragma omp target teams distribute parallel for reduction(+: total) map(to: m)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      total += m[i][j];
#pragma omp target teams distribute parallel for map(to: m) map(tofrom: out)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      out[i][0] += m[i][j];
  double s = total;
  for (int i = 0; i < N; i++)
    s += out[i][0] * (double)(i % 3 + 1);
  printf("checksum %.4f\n", s);
  return 0;
}
