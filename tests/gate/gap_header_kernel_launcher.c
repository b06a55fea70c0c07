/* The kernel that uses `x` sits in launcher_kernels.h, written with `_Pragma`, which omplens
 * does not read, and no map covers `x` at the calls: `fix` cannot know whether the kernel finds it on the device, so
 * that is a gap (nothing written), never a silent "nothing to map". */
#include <stdio.h>
#include <stdlib.h>
#include "launcher_kernels.h"

#define N 1024

int main(void) {
  float *x = (float *)malloc(N * sizeof(float));
  for (int i = 0; i < N; i++)
    x[i] = (float)(i % 7);
  square_on_device(x, N);
  square_on_device(x, N);
  float sum = 0.0f;
  for (int i = 0; i < N; i++)
    sum += x[i];
  printf("sum=%.1f\n", sum);
  free(x);
  return 0;
}
