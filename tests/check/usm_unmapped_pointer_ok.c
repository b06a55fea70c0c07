/* Unified shared memory: the program requires that host and device share memory, so the
 * kernel uses the host's allocation through its pointer with no map clause, and the host reads
 * the results after the kernel without a copy back. */
#include <stdio.h>
#include <stdlib.h>

#pragma omp requires unified_shared_memory

#define N 512

int main(void) {
  int *squares = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++)
    squares[i] = -1;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    squares[i] = i * i;
  long sum = 0;
  for (int i = 0; i < N; i++)
    sum += squares[i];
  printf("sum=%ld\n", sum);
  free(squares);
  return 0;
}
