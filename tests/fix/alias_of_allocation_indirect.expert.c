/* A kernel writes through a copy of the allocation's pointer (`float *w = w_flat;`) at
 * indices read from another array (`w[perm[i]]`), which no loop bound limits. The section to
 * map is the whole allocation of the pointer it copies: w[0:n]. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 2048;
  int *perm = (int *)malloc(n * sizeof(int));
  float *w_flat = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) {
    perm[i] = (i * 37) % n;
    w_flat[i] = (float)(i % 5);
  }
  float *w = w_flat;
#pragma omp target teams distribute parallel for map(to: perm[0:n]) map(tofrom: w[0:n])
  for (int i = 0; i < n; i++)
    w[perm[i]] += 1.0f;
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += w_flat[i] * (i % 3);
  printf("%.1f\n", sum);
  free(perm);
  free(w_flat);
  return 0;
}
