/* A relaxation kernel inside `while (iter < max && !done)`: the kernel also sums the change
 * it made (a reduction scalar, implicitly tofrom on the combined construct); the host reads
 * that value back and sets the convergence flag. x is only needed on the host at the end. */
#include <math.h>
#include <stdio.h>

#define N 1024
#define MAX_ITER 20

int main(void) {
  double x[N], b[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    b[i] = (double)(i % 5) * 2.0;
  }

  int iter = 0, done = 0;
  const double tol = 4.0;
#pragma omp target data map(to: b) map(tofrom: x)
  while (iter < MAX_ITER && !done) {
    double change = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : change)
    for (int i = 0; i < N; i++) {
      double xn = 0.5 * (x[i] + b[i]);
      change += fabs(xn - x[i]);
      x[i] = xn;
    }
    iter++;
    printf("iter %d change=%.6f\n", iter, change);
    if (change < tol)
      done = 1;
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += x[i];
  printf("converged=%d iterations=%d sum=%.6f x[4]=%.6f\n", done, iter, sum, x[4]);
  return 0;
}
