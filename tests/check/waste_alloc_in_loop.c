/* Allocation in a loop: the scratch buffer only lives on the device, but its `target data`
 * region is inside the time loop, so it is allocated and freed on every step. Moving the
 * map(alloc:) to the region around the loop allocates it once. */
#include <stdio.h>

#define N 4096
#define STEPS 16

int main(void) {
  double u[N], flux[N];
  for (int i = 0; i < N; i++)
    u[i] = (double)(i % 32);

#pragma omp target data map(tofrom: u)
  for (int t = 0; t < STEPS; t++) {
#pragma omp target data map(alloc: flux)
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        flux[i] = 0.25 * (u[(i + 1) % N] - u[i]);
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        u[i] = u[i] + flux[i] - flux[(i + N - 1) % N];
    }
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += u[i] * (double)(i % 3);
  printf("weighted=%.6f\n", sum);
  return 0;
}
