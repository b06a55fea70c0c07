/* A reduction on a combined `target teams distribute parallel for`: the reduction variable
 * is mapped tofrom implicitly (OpenMP 5.0+), so the host sees the reduced value. The input
 * is mapped `to` with its length. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 10000;
  int *v = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    v[i] = (i * 31) % 1000;

  long sum = 0;
  int maxv = 0;
#pragma omp target teams distribute parallel for map(to: v[0:n]) reduction(+: sum) reduction(max: maxv)
  for (int i = 0; i < n; i++) {
    sum += v[i];
    if (v[i] > maxv)
      maxv = v[i];
  }

  printf("sum=%ld max=%d\n", sum, maxv);
  free(v);
  return 0;
}
