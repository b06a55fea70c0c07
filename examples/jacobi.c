// A 2-D Jacobi relaxation offloaded with OpenMP, as first written: the kernels carry no data
// mappings, so every time step copies both grids to the device and back.
#include <stdio.h>
#include <stdlib.h>

#define NX 256
#define NY 256

static double checksum(const double *g, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += g[i];
  return s;
}

int main(void) {
  int steps = 50;
  double *u = malloc(sizeof(double) * NX * NY);
  double *unew = malloc(sizeof(double) * NX * NY);
  for (int i = 0; i < NX * NY; ++i) {
    u[i] = (i % NX == 0) ? 1.0 : 0.0;
    unew[i] = u[i];
  }

  for (int t = 0; t < steps; ++t) {
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < NY - 1; ++i)
      for (int j = 1; j < NX - 1; ++j)
        unew[i * NX + j] = 0.25 * (u[(i - 1) * NX + j] + u[(i + 1) * NX + j] +
                                   u[i * NX + j - 1] + u[i * NX + j + 1]);

#pragma omp target teams distribute parallel for
    for (int k = 0; k < NX * NY; ++k)
      u[k] = unew[k];

    if (t % 10 == 0)
      printf("step %d checksum %.6f\n", t, checksum(u, NX * NY));
  }

  printf("final checksum %.6f\n", checksum(u, NX * NY));
  free(u);
  free(unew);
  return 0;
}
