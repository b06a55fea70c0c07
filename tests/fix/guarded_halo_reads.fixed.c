// A 1-D convolution whose kernel reads `in[start + j]` only under a guard `start + j >= 0 &&
// start + j < n`: from its loop bounds alone the reads reach `w / 2` elements before `in` and
// after its end. A map of that section (`a[-w / 2:n + w - 1]`) copies memory outside the
// allocation; the map must cover the allocation instead (HeCBench's convolution1D, where the
// section extended the caller's mapping and the output went wrong).
#include <stdio.h>
#include <stdlib.h>

static void conv(const float *mask, const float *in, float *out, int n, int w) {
#pragma omp target teams distribute parallel for map(to: mask[0:w]) map(from: out[0:n]) firstprivate(n, w)
  for (int i = 0; i < n; i++) {
    int start = i - w / 2;
    float s = 0.0f;
    for (int j = 0; j < w; j++)
      if (start + j >= 0 && start + j < n)
        s += in[start + j] * mask[j];
    out[i] = s;
  }
}

int main(void) {
  int n = 4096, w = 5;
  float mask[5] = {1, 2, 4, 2, 1};
  float *a = (float *)malloc(n * sizeof(float));
  float *b = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    a[i] = (float)(i % 7);
#pragma omp target data map(to: mask, a[0:n]) map(from: b[0:n])
  for (int r = 0; r < 2; r++) {
    conv(mask, a, b, n, w);
#pragma omp target update from(b[0:n])
    for (int i = 0; i < n; i++)
      a[i] = b[i] / 10.0f;
#pragma omp target update to(a[0:n])
  }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += b[i];
  printf("%.1f\n", s);
  free(a);
  free(b);
  return 0;
}
