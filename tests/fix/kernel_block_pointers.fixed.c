// A kernel walks its data in blocks through pointers it derives inside the kernel
// (`const float *blk_in = in + b * B;`), as many HeCBench kernels do. The data region must map
// the arrays those pointers point into (omplens's synthesis used to see only `blk_in` and
// `blk_out`, declared in the kernel, and map nothing). The accesses are bounded by the blocks,
// so the maps cover the allocations.
#include <stdio.h>
#include <stdlib.h>

#define B 64

int main(void) {
  int nb = 32;
  float *in = (float *)malloc(nb * B * sizeof(float));
  float *out = (float *)malloc(nb * B * sizeof(float));
  for (int i = 0; i < nb * B; i++)
    in[i] = (float)(i % 11);
#pragma omp target data map(to: in[0:nb * B]) map(from: out[0:nb * B])
  for (int r = 0; r < 3; r++) {
#pragma omp target teams distribute firstprivate(nb, r)
    for (int b = 0; b < nb; b++) {
      const float *blk_in = in + b * B;
      float *blk_out = out + b * B;
#pragma omp parallel for
      for (int i = 0; i < B; i++)
        blk_out[i] = blk_in[i] * 0.5f + (float)r;
    }
  }
  double s = 0.0;
  for (int i = 0; i < nb * B; i++)
    s += out[i] * (i % 5);
  printf("%.2f\n", s);
  free(in);
  free(out);
  return 0;
}
