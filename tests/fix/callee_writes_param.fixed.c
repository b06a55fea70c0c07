/* A callee writes its pointer parameter on the host (init), another callee holds a kernel
 * over its pointer parameter (scale); main calls init once, then scale in a loop, then
 * prints. The malloc'd x is never mapped implicitly; the region belongs in main. */
#include <stdio.h>
#include <stdlib.h>

#define STEPS 12

void init(double *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = (double)(i % 16) + 1.0;
}

void scale(double *x, int n, double f) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n]) firstprivate(f, n)
  for (int i = 0; i < n; i++)
    x[i] = x[i] * f + 1.0;
}

int main(void) {
  int n = 3000;
  double *x = malloc(n * sizeof(double));
  init(x, n);

#pragma omp target data map(tofrom: x[0:n])
  for (int s = 0; s < STEPS; s++)
    scale(x, n, s % 2 == 0 ? 0.5 : 1.5);

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += x[i];
  printf("sum=%.6f x[0]=%.6f x[15]=%.6f x[%d]=%.6f\n", sum, x[0], x[15], n - 1, x[n - 1]);
  free(x);
  return 0;
}
