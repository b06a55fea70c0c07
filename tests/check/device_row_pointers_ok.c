// A host array of pointers whose elements hold `omp_target_alloc` memory (one device buffer
// per row): the kernel writes the rows through the device addresses the array carries, the
// array itself is only read. The host's copy of `rows` stays valid after `map(to: ...)`, and
// the rows come back with `omp_target_memcpy`.
// (Without OpenMP the rows are host memory, for the sequential reference.)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#define R 4
#define C 32

int main(void) {
  double *rows[R];
  double out[R * C];
#ifdef _OPENMP
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  for (int r = 0; r < R; r++)
    rows[r] = (double *)omp_target_alloc(C * sizeof(double), dev);
#else
  for (int r = 0; r < R; r++)
    rows[r] = (double *)malloc(C * sizeof(double));
#endif
#pragma omp target teams distribute parallel for map(to: rows)
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++)
      rows[r][c] = r * 100 + c;
  for (int r = 0; r < R; r++) {
#ifdef _OPENMP
    omp_target_memcpy(out + r * C, rows[r], C * sizeof(double), 0, 0, host, dev);
    omp_target_free(rows[r], dev);
#else
    memcpy(out + r * C, rows[r], C * sizeof(double));
    free(rows[r]);
#endif
  }
  double s = 0.0;
  for (int i = 0; i < R * C; i++)
    s += out[i];
  printf("sum %.1f\n", s);
  return 0;
}
