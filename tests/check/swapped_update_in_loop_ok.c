/* Each iteration doubles the data into the other buffer, swaps the two pointers, and copies
 * the new current buffer back; the loop condition reads it through the array of buffers
 * (`bufs[which]`), a name omplens does not tie to `cur`. The update names a different buffer
 * on each iteration, so it cannot move after the loop (HeCBench's eigenvalue, where
 * `check --fix` moved it and the loop never ended). */
#include <stdio.h>
#include <stdlib.h>

static int done(const float *v, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s > 1000.0f;
}

static int run(float **bufs, float *cur, float *next, int n) {
  int which = 0, steps = 0;
  while (!done(bufs[which], n)) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      next[i] = cur[i] * 2.0f;
    which = 1 - which;
    float *t = next;
    next = cur;
    cur = t;
#pragma omp target update from(cur[0:n])
    steps++;
  }
  return steps;
}

int main(void) {
  int n = 64;
  float *bufs[2];
  bufs[0] = (float *)malloc(n * sizeof(float));
  bufs[1] = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) {
    bufs[0][i] = 1.0f;
    bufs[1][i] = 0.0f;
  }
  float *b0 = bufs[0], *b1 = bufs[1];
  int steps;
#pragma omp target data map(to: b0[0:n], b1[0:n])
  {
    steps = run(bufs, b0, b1, n);
  }
  printf("steps=%d first=%.1f\n", steps, bufs[steps % 2][0]);
  free(bufs[0]);
  free(bufs[1]);
  return 0;
}
