// A function times its kernels and returns the time: the clock value read between the warm-up
// kernel and the timed loop is used by the `return` after them. A `target data` region with
// braces would end that variable's scope too early and cannot hold the `return`, so the region
// is written as `target enter data` before the kernels and `target exit data` after them.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double scale_all(float *v, int n, int repeat) {
#pragma omp target enter data map(to: v[0:n])
  // warm-up
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    v[i] = v[i] * 1.0f;
  clock_t start = clock();
  for (int r = 0; r < repeat; r++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      v[i] = v[i] * 0.5f + 1.0f;
  }
#pragma omp target exit data map(from: v[0:n])
  clock_t end = clock();
  return (double)(end - start);
}

int main(void) {
  const int n = 4096;
  float *v = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    v[i] = (float)(i % 13);
  double t = scale_all(v, n, 8);
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += v[i];
  printf("%.3f %d\n", sum, t >= 0.0);
  free(v);
  return 0;
}
