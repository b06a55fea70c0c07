// Exercises kernels whose function bodies live in a header included from the same directory (include/vec_kernels.h).
#include <stdio.h>
#include "include/vec_kernels.h"

#define N 200

int main(void) {
  double x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = (double)(i % 4);
    y[i] = 1.0;
  }
  for (int it = 0; it < 3; it++)
    vec_axpy(y, x, 0.5, N);
  double d = vec_dot(x, y, N);
  printf("y[3]=%.2f dot=%.2f\n", y[3], d);
  return 0;
}
