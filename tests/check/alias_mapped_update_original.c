/* The region maps a copy of the pointer (`float *dev = buf;`, taken after `buf` got its
 * allocation) while the host writes and updates through the original: one object under two
 * names, present at the update. No finding. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 1024;
  const size_t bytes = n * sizeof(float);
  float *buf;
  buf = (float *)malloc(bytes);
  float *out = (float *)malloc(bytes);
  float *dev = buf;
  double total = 0;
#pragma omp target data map(alloc: dev[0:n], out[0:n])
  {
    for (int r = 0; r < 4; r++) {
      for (int i = 0; i < n; i++)
        buf[i] = (float)(i % 8 + r);
#pragma omp target update to(buf[0:n])
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        out[i] = 2 * dev[i];
#pragma omp target update from(out[0:n])
      for (int i = 0; i < n; i++)
        total += out[i];
    }
  }
  printf("%.1f\n", total);
  free(buf);
  free(out);
  return 0;
}
