/* A loader fills a host buffer and refreshes the device copy itself with `target update to`;
 * the caller keeps the buffer mapped and runs a kernel on it after each load. The kernel
 * reads what the loader sent. */
#include <stdio.h>

#define M 128

static void load(float *buf, int n, float scale) {
  for (int i = 0; i < n; i++)
    buf[i] = scale * i;
#pragma omp target update to(buf[0:n])
}

int main(void) {
  float buf[M], out[M];
#pragma omp target enter data map(alloc: buf[0:M], out[0:M])
  for (int r = 0; r < 4; r++) {
    load(buf, M, (float)r);
#pragma omp target teams distribute parallel for
    for (int i = 0; i < M; i++)
      out[i] = buf[i] + 1.0f;
  }
#pragma omp target exit data map(from: out[0:M]) map(delete: buf[0:M])
  printf("%.1f\n", out[3]);
  return 0;
}
