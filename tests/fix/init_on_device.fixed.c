/* Arrays initialised by a kernel rather than by the host, then updated in a time loop and
 * read by the host at the end. Nothing the host holds before the loop is needed on the
 * device: the tight mapping is map(from: u) and map(alloc: v), with no copy-in at all. */
#include <stdio.h>

#define N 3072
#define STEPS 12

int main(void) {
  double u[N], v[N];

#pragma omp target data map(from: u) map(alloc: v)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) {
      u[i] = (double)(i % 20);
      v[i] = (double)((i * 7) % 10) - 4.5;
    }

    for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        v[i] = 0.5 * v[i] - 0.25 * u[i];
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        u[i] = u[i] + 0.5 * v[i] + 1.0;
    }
  }

  double su = 0.0;
  for (int i = 0; i < N; i++)
    su += u[i];
  printf("sum_u=%.6f u[0]=%.6f u[19]=%.6f u[3071]=%.6f\n", su, u[0], u[19], u[N - 1]);
  return 0;
}
