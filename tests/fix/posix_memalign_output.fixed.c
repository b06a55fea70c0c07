// `out` comes from posix_memalign, which gives uninitialised memory through the pointer's
// address, and only the kernels write it: nothing on the host to copy in (HeCBench's
// popcount and jenkins-hash mapped their outputs `tofrom`; the experts use `from`).
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = 8192;
  int repeat = argc > 1 ? atoi(argv[1]) : 3;
  float *x = (float *)malloc(n * sizeof(float));
  float *out = NULL;
  if (posix_memalign((void **)&out, 1024, n * sizeof(float)) != 0)
    return 1;
  for (int i = 0; i < n; i++)
    x[i] = (float)(i % 17);
#pragma omp target data map(to: x[0:n]) map(from: out[0:n])
  for (int k = 0; k < repeat; k++) {
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      out[i] = 3.0f * x[i] + 1.0f;
  }
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (out[i] != 3.0f * x[i] + 1.0f)
      errors++;
  printf("errors=%d\n", errors);
  free(x);
  free(out);
  return 0;
}
