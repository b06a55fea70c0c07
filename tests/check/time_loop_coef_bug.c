/* Outdated data in a time loop: the host recomputes the weights `w` for the next step at the
 * end of every step, but they were copied to the device only once, when the region started.
 * From the second step on, the kernel reads the weights of step 0. */
#include <stdio.h>

#define N 512
#define STEPS 6

int main(void) {
  double u[N], w[N];
  for (int i = 0; i < N; i++) {
    u[i] = (double)(i % 9);
    w[i] = (double)(i % 3);
  }

#pragma omp target data map(tofrom: u) map(to: w)
  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      u[i] = 0.5 * u[i] + w[i];

    for (int i = 0; i < N; i++)
      w[i] = (double)((i + t + 1) % 3);
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += u[i];
  printf("sum=%.6f u[5]=%.6f\n", sum, u[5]);
  return 0;
}
