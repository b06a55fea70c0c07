/* Ping-pong buffers held in an array of pointers (HeCBench's tsa keeps them so) and passed to
 * a kernel in a header: a map of `buf` copies the two pointers, not the data behind them, so
 * the region must not name `buf` and call that mapped. Each call is a gap, named. */
#include <stdio.h>
#include <stdlib.h>
#include "pingpong_kernels.h"

#define N 2048

int main(void) {
  float *buf[2];
  buf[0] = (float *)malloc(N * sizeof(float));
  buf[1] = (float *)malloc(N * sizeof(float));
  for (int i = 0; i < N; i++)
    buf[0][i] = (float)(i % 5);
  int s = 0;
  for (int r = 0; r < 6; r++) {
    relax(buf[s], buf[1 - s], N);
    s = 1 - s;
  }
  float sum = 0.0f;
  for (int i = 0; i < N; i++)
    sum += buf[s][i];
  printf("sum=%.1f\n", sum);
  free(buf[0]);
  free(buf[1]);
  return 0;
}
