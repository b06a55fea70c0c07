/* Copy in a loop: the coefficients never change in the time loop, but the kernel maps them
 * `to` itself, so they are allocated and copied on every step. A `map(to: coef)` on the
 * enclosing region would copy them once. */
#include <stdio.h>

#define N 2048
#define STEPS 25

int main(void) {
  double coef[N], u[N];
  for (int i = 0; i < N; i++) {
    coef[i] = 0.25 * (double)(i % 4);
    u[i] = 1.0;
  }

#pragma omp target data map(tofrom: u)
  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for map(to: coef)
    for (int i = 0; i < N; i++)
      u[i] = u[i] * coef[i] + 1.0;
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += u[i];
  printf("sum=%.6f\n", sum);
  return 0;
}
