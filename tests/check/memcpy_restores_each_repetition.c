/* Each repetition restores the input from a pristine host copy with `memcpy`, sends it with
 * `target update to`, and a kernel updates it in place. `memcpy` and `memset` write their
 * destination without reading it: the host copy, stale since the first kernel, is
 * overwritten, never read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  int n = 2048, reps = 3;
  float *pristine = (float *)malloc(n * sizeof(float));
  float *buf = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    pristine[i] = (float)(i % 16);

#pragma omp target data map(from: buf[0:n])
  {
    for (int r = 0; r < reps; r++) {
      memset(buf, 0, n * sizeof(float));
      memcpy(buf, pristine, n * sizeof(float));
#pragma omp target update to(buf[0:n])
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        buf[i] = buf[i] * 2.0f + 1.0f;
    }
  }

  printf("buf[1]=%.1f buf[%d]=%.1f\n", buf[1], n - 1, buf[n - 1]);
  free(pristine);
  free(buf);
  return 0;
}
