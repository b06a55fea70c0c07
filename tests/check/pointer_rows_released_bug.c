// Rows of an array of pointers mapped one by one, and a real bug: each row is released
// (`map(release: ...)`) where it should come home (`map(from: ...)`), so the host sums its
// own old rows and the kernels' doubling is lost.
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
#pragma omp target exit data map(release: rows[i][0:M])
    for (int j = 0; j < M; j++)
      sum += rows[i][j];
    free(rows[i]);
  }
#pragma omp target exit data map(delete: rows[0:N])
  printf("%.1f\n", sum);
  return 0;
}
