/* Uninitialized device data: the host initializes `acc`, but it is entered with `alloc`, so
 * the device copy holds whatever the allocation contained. The kernel adds to it before
 * anything wrote it on the device. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1500;
  double *acc = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    acc[i] = 100.0 + (double)(i % 3);

#pragma omp target enter data map(alloc: acc[0:n])

#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    acc[i] += (double)(i % 10);

#pragma omp target exit data map(from: acc[0:n])

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += acc[i];
  printf("sum=%.1f\n", sum);
  free(acc);
  return 0;
}
