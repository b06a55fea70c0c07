/* A 1-D diffusion time loop with two kernels per step; every k-th step the host injects a
 * source term into the first two elements between kernels. An expert keeps u on the device
 * and moves just u[0:2] each way on injection steps (target update from/to inside the if). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 1024, steps = 20, every = 4;
  double *u = malloc(n * sizeof(double));
  double *unew = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    u[i] = 0.0;
    unew[i] = 0.0;
  }

#pragma omp target data map(tofrom: u[0:n]) map(alloc: unew[1:n - 2])
  for (int t = 0; t < steps; t++) {
    if (t % every == 0) {
#pragma omp target update from(u[0:1])
      u[0] += 32.0;
#pragma omp target update to(u[0:1])
#pragma omp target update from(u[1:1])
      u[1] += 16.0;
#pragma omp target update to(u[1:1])
    }
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 1; i < n - 1; i++)
      unew[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 1; i < n - 1; i++)
      u[i] = unew[i];
  }

  double total = 0.0;
  for (int i = 0; i < n; i++)
    total += u[i];
  printf("total=%.6f u[0]=%.6f u[1]=%.6f u[5]=%.6f u[20]=%.6f\n", total, u[0], u[1], u[5], u[20]);
  free(u);
  free(unew);
  return 0;
}
