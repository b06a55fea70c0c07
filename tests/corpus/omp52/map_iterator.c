// PARSE-ONLY: exercises the map iterator modifier `map(iterator(it = 0:n), to: p[it][0:m])`; clang-19 rejects it by default (5.1) and accepts it only with -fopenmp-version=52, so check_corpus.sh checks this file with -fsyntax-only only (no build/run).
#include <stdio.h>

#define ROWS 6
#define COLS 10

int main(void) {
  double storage[ROWS][COLS];
  double *rows[ROWS];
  double rowsum[ROWS];
  int n = ROWS, m = COLS;
  for (int i = 0; i < ROWS; i++) {
    rows[i] = storage[i];
    for (int j = 0; j < COLS; j++)
      storage[i][j] = (double)(i + j);
  }

  /* the pointer array itself plus every row it points to */
#pragma omp target map(to: rows[0:n]) map(iterator(it = 0:n), to: rows[it][0:m]) map(from: rowsum)
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < m; j++)
      s += rows[i][j];
    rowsum[i] = s;
  }

  /* iterator with a step, updating every second row */
#pragma omp target map(to: rows[0:n]) map(iterator(k = 0:n:2), tofrom: rows[k][0:m])
  for (int i = 0; i < n; i += 2)
    for (int j = 0; j < m; j++)
      rows[i][j] *= 2.0;

  for (int i = 0; i < ROWS; i++)
    printf("row %d sum %.1f first %.1f\n", i, rowsum[i], storage[i][0]);
  return 0;
}
