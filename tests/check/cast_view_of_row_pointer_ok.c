/* The grids are pointers to whole rows (`row_t *cur`); the region maps them through flat
 * views of the same storage (`double *c = (double *)cur;`, `c[0:NY*NX]`), while the kernels
 * (in callees) and the host read them by their row names. One object under two names whose
 * elements differ in size: the map covers the rows' data. Before, the view was a different
 * object: OMP204 said the kernel never reads `c` (its fix mapped it `alloc`, losing the
 * input) and OMP207 offered to move the periodic `target update from` out of the loop. */
#include <stdio.h>
#include <stdlib.h>

#define NY 64
#define NX 32
typedef double row_t[NX];

static void relax(row_t *out, row_t *in) {
#pragma omp target teams distribute parallel for collapse(2)
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < NX; x++) {
      double l = in[y][x > 0 ? x - 1 : x];
      double r = in[y][x < NX - 1 ? x + 1 : x];
      out[y][x] = 0.5 * in[y][x] + 0.25 * (l + r);
    }
}

static void copy_back(row_t *dst, row_t *src) {
#pragma omp target teams distribute parallel for collapse(2)
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < NX; x++)
      dst[y][x] = src[y][x];
}

static double total(row_t *g) {
  double s = 0;
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < NX; x++)
      s += g[y][x];
  return s;
}

int main(void) {
  row_t *cur = malloc(sizeof(row_t) * NY);
  row_t *next = malloc(sizeof(row_t) * NY);
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < NX; x++)
      cur[y][x] = (double)((x * 7 + y * 3) % 11);
  double *c = (double *)cur;
  double *n = (double *)next;
#pragma omp target data map(to: c[0:NY*NX]) map(alloc: n[0:NY*NX])
  {
    for (int t = 0; t < 12; t++) {
      relax(next, cur);
      if (t % 4 == 3) {
#pragma omp target update from(n[0:NY*NX])
        printf("step %d: %.4f\n", t, total(next));
      }
      copy_back(cur, next);
    }
  }
  free(cur);
  free(next);
  return 0;
}
