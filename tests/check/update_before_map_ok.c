/* Working twin of update_before_map_bug.c: without the dead `target update`, the kernel's
 * map(to:) is the one copy of `coef`. */
#include <stdio.h>

#define N 800

int main(void) {
  double coef[N], out[N];
  for (int i = 0; i < N; i++)
    coef[i] = 0.125 * (double)(i % 8);

#pragma omp target teams distribute parallel for map(to: coef) map(from: out)
  for (int i = 0; i < N; i++)
    out[i] = coef[i] * (double)i;

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += out[i];
  printf("sum=%.3f\n", sum);
  return 0;
}
