/* The host fills `a` in a loop on every run, but `a` is only allocated on the device
 * (`map(alloc:)`) and no `target update to` sends it: the kernel reads device memory nothing
 * wrote. The filling loop may run zero times, so on some paths the device copy is merely
 * uninitialized, which alone is reported only when certain; the host's write is the reason
 * to report (before, the join kept "uninitialized" as the reason and nothing was reported). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1024, runs = 3;
  int *a = (int *)malloc(n * sizeof(int));
  int *c = (int *)malloc(n * sizeof(int));
  long sum = 0;
#pragma omp target data map(alloc: a[0:n], c[0:n])
  {
    for (int r = 0; r < runs; r++) {
      for (int i = 0; i < n; i++)
        a[i] = i * (r + 1);
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        c[i] = a[i] + 1;
#pragma omp target update from(c[0:n])
      for (int i = 0; i < n; i++)
        sum += c[i];
    }
  }
  printf("sum = %ld\n", sum);
  free(a);
  free(c);
  return 0;
}
