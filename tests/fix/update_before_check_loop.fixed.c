// The kernels' results are checked element by element on the host, and a timer taken between
// the kernels and printed after the check keeps the check loop inside the data region (`mid`
// is declared inside it and used after the check). The copy back belongs before the check
// loop, once: omplens put it inside the loop, before each element's test (HeCBench's atan2:
// 100 GB copied instead of 2 MB).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void) {
  int n = 4096;
  float *x = (float *)malloc(n * sizeof(float));
  float *y = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    x[i] = (float)(i % 13);
  clock_t start = clock();
#pragma omp target data map(to: x[0:n]) map(alloc: y[0:n])
  {
    for (int r = 0; r < 2; r++) {
#pragma omp target teams distribute parallel for firstprivate(n, r)
      for (int i = 0; i < n; i++)
        y[i] = 2.0f * x[i] + (float)r;
    }
    clock_t mid = clock();
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      y[i] = 2.0f * x[i] + 2.0f;
    int errors = 0;
#pragma omp target update from(y[0:n])
    for (int i = 0; i < n; i++) {
      if (y[i] != 2.0f * x[i] + 2.0f)
        errors++;
    }
    printf("errors=%d timed=%d\n", errors, mid >= start);
  }
  free(x);
  free(y);
  return 0;
}
