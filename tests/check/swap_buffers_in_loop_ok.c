// Two buffers exchanged through a temporary after every step, both mapped by the region
// around the loop. Each step clears the output on the host and copies it in, the kernel
// reads the input, and the output is copied back: after the swap the input is the buffer
// just copied back, in step on both sides. Nothing is stale (the pointers name different
// buffers on odd and even steps, and each is handled in full before the swap).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  int n = 1000, steps = 5;
  double *vi = malloc(n * sizeof(double));
  double *vo = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    vi[i] = i;
#pragma omp target data map(to: vi[0:n]) map(alloc: vo[0:n])
  {
    for (int s = 0; s < steps; ++s) {
      memset(vo, 0, n * sizeof(double));
#pragma omp target update to(vo[0:n])
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        vo[i] += 0.5 * vi[i];
#pragma omp target update from(vo[0:n])
      double *t = vo;
      vo = vi;
      vi = t;
    }
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += vi[i] + vo[i];
  printf("sum = %.3f\n", sum);
  free(vi);
  free(vo);
  return 0;
}
