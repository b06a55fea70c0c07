/* A time-step loop whose body ends with a host loop that rewrites the array the next sweep's
 * kernel reads: the region around the sweep loop needs `target update to(heat)` after it.
 * omplens used to miss it (the empty join after the host loop was taken as outside the
 * region), and the rewrite then read a stale device copy (OMP102, a wrong result); the gate
 * refused it. The same rewrite without its update is what tests/tests/gate.rs checks the gate
 * refuses. */
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
