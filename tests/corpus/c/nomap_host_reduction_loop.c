// No data mapping at all: an iterative solver whose convergence test is a host reduction over device results inside the loop.
#include <stdio.h>

#define N 200

int main(void) {
  double x[N], xnew[N], b[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    b[i] = (double)(1 + i % 5);
  }

  int iter = 0;
  double diff = 1.0;
  while (diff > 1.0e-3 && iter < 200) {
    /* Jacobi sweep for a diagonally dominant tridiagonal system (4, -1, -1) */
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) {
      double left = i > 0 ? x[i - 1] : 0.0;
      double right = i < N - 1 ? x[i + 1] : 0.0;
      xnew[i] = (b[i] + left + right) / 4.0;
    }
    diff = 0.0;
    for (int i = 0; i < N; i++) { /* host reduction */
      double d = xnew[i] - x[i];
      diff += d < 0.0 ? -d : d;
      x[i] = xnew[i];
    }
    iter++;
  }
  printf("iterations=%d x[0]=%.6f x[100]=%.6f\n", iter, x[0], x[100]);
  return 0;
}
