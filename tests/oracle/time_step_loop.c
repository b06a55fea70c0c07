/* Oracle test program: a Jacobi-style kernel inside a time-step loop with only implicit
 * mappings. u[] and unew[] are fixed-size arrays, so each launch maps both tofrom:
 * per step 2 copies to the device and 2 back, N*8 = 512 bytes each.
 * STEPS = 10 -> 20 copies (10240 B) each way. */
#include <stdio.h>

#define N 64
#define STEPS 10

int main(void) {
  double u[N], unew[N];
  for (int i = 0; i < N; i++) {
    u[i] = (i == N / 2) ? 100.0 : 0.0;
    unew[i] = 0.0;
  }
  for (int t = 0; t < STEPS; t++) {
#pragma omp target
    for (int i = 1; i < N - 1; i++)
      unew[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
    for (int i = 1; i < N - 1; i++)
      u[i] = unew[i];
  }
  double total = 0.0;
  for (int i = 0; i < N; i++)
    total += u[i];
  printf("total=%.6f centre=%.6f\n", total, u[N / 2]);
  return 0;
}
