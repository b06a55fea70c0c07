/* Update of unmapped data: the programmer refreshes `coef` with `target update to` before
 * the kernel, but nothing maps `coef` until the kernel itself does, so the update copies
 * nothing. (Harmless here, since the kernel's own map copies it: the update is dead code
 * that suggests a misunderstanding of presence.) */
#include <stdio.h>

#define N 800

int main(void) {
  double coef[N], out[N];
  for (int i = 0; i < N; i++)
    coef[i] = 0.125 * (double)(i % 8);

#pragma omp target update to(coef)
#pragma omp target teams distribute parallel for map(to: coef) map(from: out)
  for (int i = 0; i < N; i++)
    out[i] = coef[i] * (double)i;

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += out[i];
  printf("sum=%.3f\n", sum);
  return 0;
}
