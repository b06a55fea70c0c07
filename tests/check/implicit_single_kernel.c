/* Implicit mapping that moves exactly what is needed: one kernel reads and updates a
 * fixed-size array, which the host initialized before and prints after, so the implicit
 * tofrom copies it in once and out once; the scalar factor is implicitly firstprivate. */
#include <stdio.h>

#define N 4096

int main(void) {
  float h[N];
  for (int i = 0; i < N; i++)
    h[i] = (float)(i % 50);

  float factor = 0.5f;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    h[i] = h[i] * factor + 1.0f;

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += h[i];
  printf("sum=%.2f h[9]=%.2f\n", sum, h[9]);
  return 0;
}
