// pointer_rows_one_by_one_ok.c with the loops bounded by a local constant (`const int nrows =
// N;`) instead of a macro: the loops still run at least once (no zero-trip path on which the
// rows were never entered or never came home). Correct.
#include <stdio.h>
#include <stdlib.h>

#define N 4
#define M 64

int main(void) {
  const int nrows = N;
  double *rows[N];
#pragma omp target enter data map(alloc: rows[0:N])
  for (int i = 0; i < nrows; i++) {
    rows[i] = malloc(M * sizeof(double));
    for (int j = 0; j < M; j++)
      rows[i][j] = i + j;
#pragma omp target enter data map(to: rows[i][0:M])
  }
  for (int i = 0; i < nrows; i++) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < M; j++)
      rows[i][j] *= 2.0;
  }
  double sum = 0;
  for (int i = 0; i < nrows; i++) {
#pragma omp target exit data map(from: rows[i][0:M])
    for (int j = 0; j < M; j++)
      sum += rows[i][j];
    free(rows[i]);
  }
#pragma omp target exit data map(delete: rows[0:N])
  printf("%.1f\n", sum);
  return 0;
}
