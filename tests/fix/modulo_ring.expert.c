/* A ring of n cells inside a buffer allocated for twice as many: each step averages a cell
 * with its neighbours, wrapping around with `% n`. The kernels touch `cells[0:n]` and
 * `next[0:n]` only, not the whole allocations. */
#include <stdio.h>
#include <stdlib.h>

#define STEPS 6

int main(void) {
  int n = 3000;
  int capacity = 2 * n;
  double *cells = (double *)malloc(capacity * sizeof(double));
  double *next = (double *)malloc(capacity * sizeof(double));
  for (int i = 0; i < capacity; i++)
    cells[i] = (double)(i % 17);
#pragma omp target data map(tofrom: cells[0:n]) map(alloc: next[0:n])
  for (int step = 0; step < STEPS; step++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      next[i] = (cells[(i + n - 1) % n] + cells[i] + cells[(i + 1) % n]) / 3.0;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      cells[i] = next[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += cells[i] * (i % 5);
  printf("%.6f\n", s);
  free(cells);
  free(next);
  return 0;
}
