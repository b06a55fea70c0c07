/* A kernel advances a per-element integer state and computes a value per element; after
 * each outer step the host builds a histogram of the values. The state stays on the device
 * (map(to:) once); only the values come back each step (target update from inside the loop). */
#include <stdio.h>

#define N 4096
#define BINS 16
#define STEPS 8

int main(void) {
  unsigned int state[N];
  int val[N];
  long hist[BINS] = {0};
  for (int i = 0; i < N; i++) {
    state[i] = 2654435761u * (unsigned int)(i + 1);
    val[i] = 0;
  }

#pragma omp target data map(to: state) map(alloc: val)
  for (int s = 0; s < STEPS; s++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) {
      unsigned int x = state[i] * 1664525u + 1013904223u;
      state[i] = x;
      val[i] = (int)(x >> 28);
    }
    int top = 0;
#pragma omp target update from(val)
    for (int i = 0; i < N; i++) {
      hist[val[i]]++;
      if (val[i] == BINS - 1)
        top++;
    }
    printf("step %d: top bin %d\n", s, top);
  }

  for (int b = 0; b < BINS; b++)
    printf("bin %2d: %ld\n", b, hist[b]);
  return 0;
}
