// A staging buffer of fixed capacity is refilled on the host, one chunk at a time, by a helper
// that writes only the chunk's first `count` entries; a kernel then folds the chunk into the
// result. Each chunk sends what the helper wrote, `stage[0:count]`, not the whole capacity.
#include <stdio.h>
#include <stdlib.h>

#define CAPACITY 1000

static int fill(const float *src, int count, float scale, float *stage) {
  if (count > CAPACITY)
    return -1;
  for (int i = 0; i < count; i++)
    stage[i] = src[i] * scale;
  return 0;
}

int main(void) {
  const int total = 2600, n = 512;
  float *src = (float *)malloc(total * sizeof(float));
  float *stage = (float *)malloc(CAPACITY * sizeof(float));
  float *out = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < total; i++)
    src[i] = (float)(i % 17) * 0.25f;
  for (int j = 0; j < n; j++)
    out[j] = 0.0f;
  for (int start = 0; start < total; start += CAPACITY) {
    int count;
    int left = total - start;
    if (left > CAPACITY)
      count = CAPACITY;
    else
      count = left;
    fill(src + start, count, 0.5f, stage);
#pragma omp target teams distribute parallel for
    for (int j = 0; j < n; j++) {
      float acc = 0.0f;
      for (int k = 0; k < count; k++)
        acc += stage[k] * (float)((j + k) % 5);
      out[j] += acc;
    }
  }
  double sum = 0.0;
  for (int j = 0; j < n; j++)
    sum += out[j];
  printf("sum=%.3f\n", sum);
  free(src);
  free(stage);
  free(out);
  return 0;
}
