/* The gate must refuse omplens's own rewrite here: the region omplens synthesizes around the
 * sweep loop misses a `target update to(heat)` after the host smooths the array, so the next
 * sweep would read a stale device copy (OMP102 on the rewrite, none on the original). */
#include <stdio.h>

#define LEN 48
#define SWEEPS 6

int main(void) {
  double heat[LEN], next[LEN];
  for (int i = 0; i < LEN; i++) {
    heat[i] = (i % 7 == 0) ? 10.0 : 1.0;
    next[i] = 0.0;
  }
  for (int s = 0; s < SWEEPS; s++) {
#pragma omp target
    for (int i = 1; i < LEN - 1; i++)
      next[i] = (heat[i - 1] + 2.0 * heat[i] + heat[i + 1]) / 4.0;
    for (int i = 1; i < LEN - 1; i++)
      heat[i] = next[i];
  }
  double sum = 0.0;
  for (int i = 0; i < LEN; i++)
    sum += heat[i];
  printf("sum=%.6f\n", sum);
  return 0;
}
