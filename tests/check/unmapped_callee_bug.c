/* Missing data through a callee: `saxpy` launches a kernel on its pointer parameters, which
 * are implicitly zero-length sections. The caller's `target data` maps `y` but forgot `x`,
 * so the kernel uses x's data without a device copy. */
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

#pragma omp target data map(tofrom: y[0:n])
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
