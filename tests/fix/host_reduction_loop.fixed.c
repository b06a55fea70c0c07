/* Iterative solver: each iteration a kernel relaxes x towards b, then the HOST computes the
 * residual (a sum over x) and the loop stops on a tolerance or an iteration cap. x must come
 * back every iteration; b only needs to go to the device once. */
#include <math.h>
#include <stdio.h>

#define N 1024
#define MAX_ITER 20

int main(void) {
  double x[N], b[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    b[i] = (double)(i % 7);
  }

  const double tol = 1.0;
  double res = 1.0e30;
  int iter = 0;
#pragma omp target data map(to: b) map(tofrom: x)
  for (iter = 0; iter < MAX_ITER && res > tol; iter++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      x[i] = 0.5 * (x[i] + b[i]);

    res = 0.0;
#pragma omp target update from(x)
    for (int i = 0; i < N; i++)
      res += fabs(b[i] - x[i]);
    printf("iter %d residual=%.6f\n", iter, res);
  }

  printf("done after %d iterations: x[6]=%.6f x[%d]=%.6f\n", iter, x[6], N - 1, x[N - 1]);
  return 0;
}
