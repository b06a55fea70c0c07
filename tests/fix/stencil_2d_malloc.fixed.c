/* Flattened 2-D Jacobi stencil on malloc'd double *in, *out of size nx*ny: two kernels per
 * time step (compute the interior of out, copy it back into in); the result is read at the
 * end. Implicit rules leave both heap arrays unmapped; out never needs to reach the host. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int nx = 48, ny = 64, steps = 10;
  double *in = malloc(sizeof(double) * nx * ny);
  double *out = malloc(sizeof(double) * nx * ny);
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) {
      in[i * ny + j] = (i == 0 || j == 0) ? 64.0 : 0.0;
      out[i * ny + j] = 0.0;
    }

#pragma omp target data map(to: out[ny + 1:nx * ny - 2 * ny - 2]) map(tofrom: in[0:nx * ny])
  for (int t = 0; t < steps; t++) {
#pragma omp target teams distribute parallel for collapse(2) firstprivate(nx, ny)
    for (int i = 1; i < nx - 1; i++)
      for (int j = 1; j < ny - 1; j++)
        out[i * ny + j] = 0.25 * (in[(i - 1) * ny + j] + in[(i + 1) * ny + j] +
                                  in[i * ny + j - 1] + in[i * ny + j + 1]);
#pragma omp target teams distribute parallel for collapse(2) firstprivate(nx, ny)
    for (int i = 1; i < nx - 1; i++)
      for (int j = 1; j < ny - 1; j++)
        in[i * ny + j] = out[i * ny + j];
  }

  double sum = 0.0;
  for (int k = 0; k < nx * ny; k++)
    sum += in[k];
  printf("sum=%.6f in[1][1]=%.6f in[2][5]=%.6f\n", sum, in[1 * ny + 1], in[2 * ny + 5]);
  free(in);
  free(out);
  return 0;
}
