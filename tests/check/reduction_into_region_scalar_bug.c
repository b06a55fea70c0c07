/* A reduction on a combined kernel into a scalar that an enclosing `target data` maps `to`
 * only: the kernel writes the total into the device copy (the reduction's implicit tofrom
 * finds it present and copies nothing back), and the region's exit does not copy it either,
 * so the host prints its own 10. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 4096;
  int *v = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    v[i] = i % 7;

  long total = 10;
#pragma omp target data map(to: v[0:n]) map(to: total)
  {
#pragma omp target teams distribute parallel for reduction(+: total)
    for (int i = 0; i < n; i++)
      total += v[i];
  }

  printf("total=%ld\n", total);
  free(v);
  return 0;
}
