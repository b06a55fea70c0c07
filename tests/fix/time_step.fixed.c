/* Jacobi-style 1-D stencil in a time-step loop over two fixed-size arrays, with the
 * "swap" done by a second copy kernel. Implicitly both arrays are mapped tofrom on every
 * launch; only u is needed on the host, and only after the loop. */
#include <stdio.h>

#define N 1024
#define STEPS 10

int main(void) {
  double u[N], unew[N];
  for (int i = 0; i < N; i++) {
    u[i] = (double)(i % 17);
    unew[i] = 0.0;
  }

#pragma omp target data map(to: unew) map(tofrom: u)
  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; i++)
      unew[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);

#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; i++)
      u[i] = unew[i];
  }

  double total = 0.0;
  for (int i = 0; i < N; i++)
    total += u[i];
  printf("total=%.6f u[1]=%.6f u[N/2]=%.6f u[N-2]=%.6f\n", total, u[1], u[N / 2],
         u[N - 2]);
  return 0;
}
