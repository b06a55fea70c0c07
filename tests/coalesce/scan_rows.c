/* Unsafe: a running sum along each row. The parallel loop is over rows, so a[i][j] is a row
 * apart between threads (uncoalesced), but j carries a dependence and there is no other loop
 * to move up: the nest must be left alone. */
#include <stdio.h>
#define R 64
#define C 80

static double a[R][C];

int main(void) {
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      a[i][j] = (double)((i + j * 7) % 6);
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < R; i++)
    for (int j = 1; j < C; j++)
      a[i][j] = a[i][j] + a[i][j - 1];
  double s = 0.0;
  for (int i = 0; i < R; i++)
    s += a[i][C - 1] * (double)(i % 4 + 1);
  printf("checksum %.4f\n", s);
  return 0;
}
