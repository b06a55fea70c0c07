/* Working twin of time_loop_coef_bug.c: the host computes each step's weights at the start
 * of the step and sends them with `target update to` before the kernel reads them. The
 * region only allocates `w`: no value from before the loop is read on the device. */
#include <stdio.h>

#define N 512
#define STEPS 6

int main(void) {
  double u[N], w[N];
  for (int i = 0; i < N; i++)
    u[i] = (double)(i % 9);

#pragma omp target data map(tofrom: u) map(alloc: w)
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < N; i++)
      w[i] = (double)((i + t) % 3);
#pragma omp target update to(w)

#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      u[i] = 0.5 * u[i] + w[i];
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += u[i];
  printf("sum=%.6f u[5]=%.6f\n", sum, u[5]);
  return 0;
}
