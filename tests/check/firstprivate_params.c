/* Read-only parameters passed by value: a small struct of coefficients is `firstprivate`
 * (no device allocation, no copy back), and the scalars rely on the implicit firstprivate
 * rule. */
#include <stdio.h>

#define N 3000

struct Coeffs {
  double a, b, c;
};

int main(void) {
  double xs[N], ys[N];
  for (int i = 0; i < N; i++)
    xs[i] = 0.5 * (double)(i % 16) - 4.0;

  struct Coeffs k = {1.5, -2.0, 0.25};
  double offset = 10.0;
  int stride = 3;
#pragma omp target teams distribute parallel for firstprivate(k) map(to: xs) map(from: ys)
  for (int i = 0; i < N; i++)
    ys[i] = k.a * xs[i] * xs[i] + k.b * xs[(i * stride) % N] + k.c + offset;

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += ys[i];
  printf("sum=%.4f\n", sum);
  return 0;
}
