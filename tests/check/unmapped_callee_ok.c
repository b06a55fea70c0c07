/* Working twin of unmapped_callee_bug.c: the caller maps both arrays the callee's kernel
 * uses, so its zero-length sections find them present. */
#include <stdio.h>
#include <stdlib.h>

static void saxpy(int n, float a, const float *x, float *y) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(void) {
  int n = 4096;
  float *x = (float *)malloc(n * sizeof(float));
  float *y = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 7);
    y[i] = (float)(i % 3);
  }

#pragma omp target data map(to: x[0:n]) map(tofrom: y[0:n])
  {
    saxpy(n, 2.0f, x, y);
    saxpy(n, 0.5f, x, y);
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += y[i];
  printf("sum=%.2f\n", sum);
  free(x);
  free(y);
  return 0;
}
