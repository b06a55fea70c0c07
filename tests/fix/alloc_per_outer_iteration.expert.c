// Each iteration of the outer loop allocates its own arrays (a new problem size), then runs a
// kernel several times and checks the result on the host. The data region cannot be hoisted
// out of the outer loop, where the arrays do not exist yet: it belongs inside the loop body,
// around the inner loop of launches.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int sizes[] = {256, 1024, 4096};
  for (int s = 0; s < 3; s++) {
    int n = sizes[s];
    float *x = (float *)malloc(n * sizeof(float));
    float *y = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
      x[i] = (float)(i % 9);
      y[i] = 0.0f;
    }
#pragma omp target data map(to: x[0:n]) map(tofrom: y[0:n])
    for (int r = 0; r < 4; r++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        y[i] = y[i] * 0.5f + x[i];
    }
    double sum = 0.0;
    for (int i = 0; i < n; i++)
      sum += y[i];
    printf("n=%d sum=%.4f\n", n, sum);
    free(x);
    free(y);
  }
  return 0;
}
