/* A kernel's parallel loop reuses the counter `i` of the host loop around it as its own
 * iteration variable. The iteration variable of a loop construct is predetermined private
 * (OpenMP 5.2 5.1.1), so the kernel does not change the host's `i`: the host loop runs
 * REPEAT times, as written (a serial run stops after one; the kernel gives the same result
 * each time, so both print the same). */
#include <stdio.h>

#define N 256
#define REPEAT 3

int main(void) {
  double v[N];
  for (int k = 0; k < N; k++)
    v[k] = 1.0;
#pragma omp target data map(from: v)
  for (int i = 0; i < REPEAT; i++) {
#pragma omp target teams distribute parallel for
    for (i = 0; i < N; i++)
      v[i] = 2.0 * i;
  }
  printf("%.1f\n", v[N - 1]);
  return 0;
}
