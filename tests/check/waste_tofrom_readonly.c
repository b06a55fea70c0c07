/* Unchanged copy out: the input `a` is mapped tofrom, but the kernel only reads it, so the
 * copy back to the host moves data the device never wrote; map(to:) is enough. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 7000;
  int *a = (int *)malloc(n * sizeof(int));
  int *sq = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    a[i] = i % 40 - 20;

#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(from: sq[0:n])
  for (int i = 0; i < n; i++)
    sq[i] = a[i] * a[i];

  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += sq[i] + a[i];
  printf("sum=%ld\n", sum);
  free(a);
  free(sq);
  return 0;
}
