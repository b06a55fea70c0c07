/* malloc'd arrays whose sizes are computed in variables (n = rows * cols, and rows); kernels
 * over n in a time-step loop, then a kernel over rows that reduces each row. The host reads
 * only the row sums. Implicitly the pointers are unmapped. */
#include <stdio.h>
#include <stdlib.h>

#define STEPS 10

int main(void) {
  int rows = 48, cols = 64;
  int n = rows * cols;
  double *src = malloc(n * sizeof(double));
  double *acc = malloc(n * sizeof(double));
  double *rowsum = malloc(rows * sizeof(double));
  for (int k = 0; k < n; k++) {
    src[k] = (double)(k % cols) - (double)(k / cols);
    acc[k] = 0.0;
  }

#pragma omp target data map(to: src[0:n], acc[0:n]) map(from: rowsum[0:rows])
  {
    for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for firstprivate(n, t)
      for (int k = 0; k < n; k++)
        acc[k] = 0.5 * acc[k] + src[k] * (double)(t % 3 + 1);
    }

#pragma omp target teams distribute parallel for firstprivate(cols, rows)
    for (int r = 0; r < rows; r++) {
      double s = 0.0;
      for (int j = 0; j < cols; j++)
        s += acc[r * cols + j];
      rowsum[r] = s;
    }
  }

  double checksum = 0.0;
  for (int r = 0; r < rows; r++)
    checksum += rowsum[r] * (double)(r % 5 + 1);
  printf("n=%d checksum=%.6f rowsum[0]=%.6f rowsum[%d]=%.6f\n", n, checksum, rowsum[0],
         rows - 1, rowsum[rows - 1]);
  free(src);
  free(acc);
  free(rowsum);
  return 0;
}
