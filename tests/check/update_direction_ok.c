/* Working twin of update_direction_bug.c: `target update from` brings the kernel's results
 * to the host before it reads them; the device copy is then deleted. */
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

#pragma omp target update from(v[0:n])

  long total = 0;
  for (int i = 0; i < n; i++)
    total += v[i];
  printf("total=%ld\n", total);

#pragma omp target exit data map(delete: v[0:n])
  free(v);
  return 0;
}
