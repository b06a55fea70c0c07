// The kernel that fills `out` runs in a timing loop whose trip count comes from the command
// line, so it may run no times. Then the device copy of `out` is as unset as the host's:
// `out` comes from malloc and nothing on the host writes it, so there is nothing to send.
// omplens mapped it `tofrom` (HeCBench's atan2, cooling, softmax, lombscargle, langevin:
// each output array copied to the device for nothing).
#include <stdio.h>
#include <stdlib.h>

void compute(int n, const float *x, float *r) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(from: r[0:n]) firstprivate(n)
  for (int i = 0; i < n; i++)
    r[i] = 3.0f * x[i] + 1.0f;
}

int main(int argc, char **argv) {
  int n = 8192;
  int repeat = argc > 1 ? atoi(argv[1]) : 3;
  float *x = (float *)malloc(n * sizeof(float));
  float *out = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    x[i] = (float)(i % 17);
#pragma omp target data map(to: x[0:n]) map(from: out[0:n])
  for (int k = 0; k < repeat; k++)
    compute(n, x, out);
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (out[i] != 3.0f * x[i] + 1.0f)
      errors++;
  printf("errors=%d\n", errors);
  free(x);
  free(out);
  return 0;
}
