/* A reduction on a combined kernel into a scalar that an enclosing `target data` maps
 * tofrom: the kernel combines its partial sums with the device copy (it reads the 10 the
 * region copied in and writes the total back there), and the region's exit copies the total
 * to the host. Neither copy is wasted. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 4096;
  int *v = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    v[i] = i % 7;

  long total = 10;
#pragma omp target data map(to: v[0:n]) map(tofrom: total)
  {
#pragma omp target teams distribute parallel for reduction(+: total)
    for (int i = 0; i < n; i++)
      total += v[i];
  }

  printf("total=%ld\n", total);
  free(v);
  return 0;
}
