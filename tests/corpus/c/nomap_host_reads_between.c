// No data mapping at all: the host reads and modifies arrays between kernels (boundary fix-up and printing).
#include <stdio.h>

#define N 128

int main(void) {
  double v[N], w[N];
  for (int i = 0; i < N; i++)
    v[i] = (double)i;

  for (int pass = 0; pass < 3; pass++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      w[i] = v[i] * 0.5;

    /* host reads the device result and patches the boundaries */
    printf("pass %d: w[1]=%.3f w[N-2]=%.3f\n", pass, w[1], w[N - 2]);
    w[0] = w[1];
    w[N - 1] = w[N - 2];

#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; i++)
      v[i] = (w[i - 1] + w[i] + w[i + 1]) / 3.0 + 1.0;

    v[0] = v[1];
    v[N - 1] = v[N - 2];
  }
  printf("v[0]=%.3f v[64]=%.3f\n", v[0], v[64]);
  return 0;
}
