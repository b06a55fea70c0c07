/* Implicit mappings in a time loop: neither kernel has a map clause, so each launch maps
 * both fixed-size arrays tofrom: 2 kernels x STEPS steps x 2 arrays copied each way. The
 * synthesized mapping (one region around the loop, `tofrom: t`, `alloc: tn`) copies t once
 * each way. */
#include <stdio.h>

#define N 2048
#define STEPS 20

static void diffuse(double *out) {
  double t[N], tn[N];
  for (int i = 0; i < N; i++) {
    t[i] = (i < N / 2) ? 10.0 : 0.0;
    tn[i] = 0.0;
  }
  for (int s = 0; s < STEPS; s++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      tn[i] = 0.5 * t[i] + 0.25 * (t[(i + N - 1) % N] + t[(i + 1) % N]);
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      t[i] = tn[i];
  }
  for (int i = 0; i < N; i++)
    out[i] = t[i];
}

int main(void) {
  static double result[N];
  diffuse(result);
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += result[i] * (double)(i % 5);
  printf("weighted=%.6f\n", sum);
  return 0;
}
