/* Flattened 2-D matrices behind malloc'd pointers: A and B are mapped `to` with their full
 * n*n sections, C `from`; the product kernel writes every element of C. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 48;
  double *A = (double *)malloc((size_t)n * n * sizeof(double));
  double *B = (double *)malloc((size_t)n * n * sizeof(double));
  double *C = (double *)malloc((size_t)n * n * sizeof(double));
  for (int i = 0; i < n * n; i++) {
    A[i] = (double)(i % 5);
    B[i] = (double)((i * 3) % 7) - 3.0;
  }

#pragma omp target teams distribute parallel for collapse(2) map(to: A[0:n * n], B[0:n * n]) map(from: C[0:n * n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0.0;
      for (int k = 0; k < n; k++)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }

  double trace = 0.0, total = 0.0;
  for (int i = 0; i < n; i++)
    trace += C[i * n + i];
  for (int i = 0; i < n * n; i++)
    total += C[i];
  printf("trace=%.1f total=%.1f\n", trace, total);
  free(A);
  free(B);
  free(C);
  return 0;
}
