// An array of pointers whose rows are mapped one by one: the array is entered first, then
// each row as the host allocates and fills it (the row's map attaches the array's device
// element to it), kernels work row by row, and each row comes home as it is unmapped.
// Correct: the host's writes of `rows[i]` and of later rows' elements do not make the device
// copies the kernels read stale.
#include <stdio.h>
#include <stdlib.h>

#define N 4
#define M 64

int main(void) {
  double *rows[N];
#pragma omp target enter data map(alloc: rows[0:N])
  for (int i = 0; i < N; i++) {
    rows[i] = malloc(M * sizeof(double));
    for (int j = 0; j < M; j++)
      rows[i][j] = i + j;
#pragma omp target enter data map(to: rows[i][0:M])
  }
  for (int i = 0; i < N; i++) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < M; j++)
      rows[i][j] *= 2.0;
  }
  double sum = 0;
  for (int i = 0; i < N; i++) {
#pragma omp target exit data map(from: rows[i][0:M])
    for (int j = 0; j < M; j++)
      sum += rows[i][j];
    free(rows[i]);
  }
#pragma omp target exit data map(delete: rows[0:N])
  printf("%.1f\n", sum);
  return 0;
}
