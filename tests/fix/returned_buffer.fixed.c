// A function allocates its result, fills it with kernels and returns it; the caller reads it.
// The data leaves through the return value, so the region must copy it back (`from`), even
// though nothing in the function reads it on the host.
#include <stdio.h>
#include <stdlib.h>

double *ramp(const double *w, int n, int repeat) {
  double *out = malloc(n * sizeof(double));
#pragma omp target data map(to: w[0:n]) map(from: out[0:n])
  for (int r = 0; r < repeat; r++) {
#pragma omp target teams distribute parallel for firstprivate(n, r)
    for (int i = 0; i < n; i++)
      out[i] = w[i] * (r + 1);
  }
  return out;
}

int main(void) {
  const int n = 256;
  double *w = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    w[i] = i % 9;
#pragma omp target data map(to: w[0:n])
  {
    double *out = ramp(w, n, 4);
    double sum = 0;
    for (int i = 0; i < n; i++)
      sum += out[i];
    printf("%.1f\n", sum);
    free(w);
    free(out);
  }
  return 0;
}
