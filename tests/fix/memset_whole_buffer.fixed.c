/* The host clears a buffer with memset in every iteration of a loop, and a kernel adds to it
 * (HeCBench's debayer). A memset of the whole allocation writes all of it: the device's copy
 * need not come back before it (no `update from` in the loop), only go to the device after
 * it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  int n = 4096;
  size_t bytes = n * sizeof(float);
  float *in = (float *)malloc(bytes);
  float *acc = (float *)malloc(bytes);
  for (int i = 0; i < n; i++)
    in[i] = (float)(i % 13);
  double s = 0;
#pragma omp target data map(to: in[0:n]) map(from: acc[0:n])
  for (int r = 0; r < 4; r++) {
    memset(acc, 0, bytes);
#pragma omp target update to(acc[0:n])
#pragma omp target teams distribute parallel for firstprivate(n, r)
    for (int i = 0; i < n; i++)
      acc[i] += in[i] * (r + 1);
  }
  for (int i = 0; i < n; i++)
    s += acc[i];
  printf("%.1f\n", s);
  free(in);
  free(acc);
  return 0;
}
