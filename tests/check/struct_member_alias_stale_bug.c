/* A kernel reads a struct's array through a local copy of the member pointer
 * (`float *w = net->weights`, mapped `to`); the host then rewrites the array through the
 * struct (`net->weights[i] = ...`) inside the region, with no `target update to`: the kernel
 * reads the old values. */
#include <stdio.h>
#include <stdlib.h>

#define N 32

struct layer {
  float *weights;
  int n;
};

int main(void) {
  struct layer *net = (struct layer *)malloc(sizeof *net);
  net->n = N;
  net->weights = (float *)malloc(N * sizeof(float));
  float *out = (float *)malloc(N * sizeof(float));
  for (int i = 0; i < N; i++)
    net->weights[i] = 1.0f;
  float *w = net->weights;
#pragma omp target data map(to: w[0:N]) map(from: out[0:N])
  {
    for (int i = 0; i < N; i++)
      net->weights[i] = 2.0f * i;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      out[i] = w[i] + 1.0f;
  }
  printf("%.1f\n", out[N - 1]);
  free(net->weights);
  free(net);
  free(out);
  return 0;
}
