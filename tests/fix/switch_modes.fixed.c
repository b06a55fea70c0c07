/* A `switch (mode)` inside a time-step loop picks one of three kernels each step (mode cycles
 * 0, 1, 2). u is the result, c read-only coefficients, v a scratch array that mode 0 always
 * writes before mode 1 reads it. Host prints u after the loop. */
#include <stdio.h>

#define N 2048
#define STEPS 12

int main(void) {
  double u[N], v[N], c[N];
  for (int i = 0; i < N; i++) {
    u[i] = (double)(i % 6);
    v[i] = 0.0;
    c[i] = (double)(i % 3) * 0.5;
  }

#pragma omp target data map(to: v, c) map(tofrom: u)
  for (int t = 0; t < STEPS; t++) {
    int mode = t % 3;
    switch (mode) {
    case 0:
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        v[i] = u[i] * c[i];
      break;
    case 1:
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        u[i] = u[i] + 0.5 * v[i];
      break;
    default:
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        u[i] = 0.5 * u[i] + c[i];
      break;
    }
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += u[i];
  printf("sum=%.6f u[1]=%.6f u[5]=%.6f u[%d]=%.6f\n", sum, u[1], u[5], N - 1, u[N - 1]);
  return 0;
}
