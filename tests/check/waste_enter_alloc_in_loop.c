/* Allocation in a loop with unstructured mapping: each iteration enters a device-only work
 * buffer with map(alloc:) and deletes it at the end, so the device allocation is repeated
 * for every block. One enter before the loop and one exit after it would do. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 2048, blocks = 8;
  double *x = (double *)malloc(n * sizeof(double));
  double *work = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    x[i] = (double)(i % 12);

#pragma omp target enter data map(to: x[0:n])
  for (int b = 0; b < blocks; b++) {
#pragma omp target enter data map(alloc: work[0:n])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      work[i] = x[i] + (double)b;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      x[i] = 0.5 * (work[i] + work[(i + 1) % n]);
#pragma omp target exit data map(delete: work[0:n])
  }
#pragma omp target exit data map(from: x[0:n])

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += x[i];
  printf("sum=%.6f\n", sum);
  free(x);
  free(work);
  return 0;
}
