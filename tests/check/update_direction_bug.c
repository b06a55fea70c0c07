/* Wrong update direction: after the kernel, the programmer wants the device values on the
 * host but writes `target update to`, which copies the host's old values onto the device
 * instead. The host then sums data it never received. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 4096;
  int *v = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    v[i] = i % 100;

#pragma omp target enter data map(to: v[0:n])

#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    v[i] = 2 * v[i] + 1;

#pragma omp target update to(v[0:n])

  long total = 0;
  for (int i = 0; i < n; i++)
    total += v[i];
  printf("total=%ld\n", total);

#pragma omp target exit data map(delete: v[0:n])
  free(v);
  return 0;
}
