/* Nested data regions: the outer region keeps the signal on the device for both phases;
 * the inner one allocates a scratch buffer only for the phase that needs it. The inner
 * kernels find the signal present (no copy), and the outer region copies it back once. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 8192;
  double *sig = (double *)malloc(n * sizeof(double));
  double *tmp = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    sig[i] = (double)((i * 13) % 29);

#pragma omp target data map(tofrom: sig[0:n])
  {
#pragma omp target data map(alloc: tmp[0:n])
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        tmp[i] = sig[(i + 1) % n] - sig[i];
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        sig[i] = sig[i] + 0.5 * tmp[i];
    }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      sig[i] = sig[i] * 2.0;
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += sig[i] * (double)(i % 4);
  printf("weighted=%.4f\n", sum);
  free(sig);
  free(tmp);
  return 0;
}
