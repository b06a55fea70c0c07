// The kernels sit in a project header (include/smooth_kernels.h) that the program calls in a
// loop, swapping its two buffers. omplens lowers the header's bodies with their directives, so
// the region around the loop maps both buffers (`a` in and out, `b` only used on the device)
// instead of refusing a call it cannot see into.
#include <stdio.h>
#include <stdlib.h>
#include "include/smooth_kernels.h"

int main(void) {
  const int n = 1000;
  float *a = malloc(n * sizeof(float));
  float *b = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    a[i] = (float)(i % 17);
  #pragma omp target data map(tofrom: a[0:n], b[0:n])
  for (int step = 0; step < 10; step++) {
    smooth_step(a, b, n);
    copy_edges(a, b, n);
    float *t = a;
    a = b;
    b = t;
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += a[i];
  printf("%.3f\n", sum);
  free(a);
  free(b);
  return 0;
}
