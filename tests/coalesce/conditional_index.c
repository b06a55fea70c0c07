/* Conditionally defined indices. First the paper's Figure 1: idx = TSIZE + i below the half,
 * else i; each definition advances 8 bytes per iteration, so the loop is coalesced (no
 * finding). Then a 2-D nest whose column is j or n - 1 - j by a flag that is the same for
 * every thread: the flag's predicates cancel in the difference, the stride is a row either
 * way, and collapse(2) makes it 8 or -8 bytes. */
#include <stdio.h>
#define TSIZE 64
#define N 64

static double B[2 * TSIZE], src[TSIZE];
static double g[N][N], h[N][N];

int main(int argc, char **argv) {
  (void)argv;
  int mirror = argc > 0;
  for (int i = 0; i < TSIZE; i++)
    src[i] = (double)(i % 10);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      g[i][j] = (double)((i * 3 + j) % 8);
#pragma omp target teams distribute parallel for map(to: src) map(tofrom: B)
  for (int i = 0; i < TSIZE; i++) {
    int idx = 0;
    if (i < TSIZE / 2)
      idx = TSIZE + i;
    else
      idx = i;
    B[idx] = src[i] * 2.0;
  }
#pragma omp target teams distribute parallel for map(to: g) map(from: h)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int col = j;
      if (mirror)
        col = N - 1 - j;
      h[i][col] = g[i][j] + 1.0;
    }
  double s = 0.0;
  for (int i = 0; i < 2 * TSIZE; i++)
    s += B[i] * (double)(i % 7);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += h[i][j] * (double)((i + j) % 5);
  printf("checksum %.4f\n", s);
  return 0;
}
