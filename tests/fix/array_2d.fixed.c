/* Heat diffusion on a fixed-size 2-D array a[NX][NY] with collapse(2) kernels in a
 * time-step loop (anew is a device-only scratch copy), plus a flattened malloc'd 2-D array
 * b indexed b[i*ny + j] that a kernel fills from a each step. Host reads a and b after. */
#include <stdio.h>
#include <stdlib.h>

#define NX 32
#define NY 48
#define STEPS 8

int main(void) {
  double a[NX][NY], anew[NX][NY];
  int nx = NX, ny = NY;
  double *b = malloc(nx * ny * sizeof(double));
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      a[i][j] = (double)((i * 7 + j * 3) % 16);
      anew[i][j] = 0.0;
    }

#pragma omp target data map(to: anew) map(tofrom: a) map(from: b[0:nx * ny])
  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++)
        anew[i][j] = 0.5 * a[i][j] +
                     0.125 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);

#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++)
        a[i][j] = anew[i][j];

#pragma omp target teams distribute parallel for collapse(2) firstprivate(nx, ny, t)
    for (int i = 0; i < nx; i++)
      for (int j = 0; j < ny; j++)
        b[i * ny + j] = 2.0 * a[i][j] + (double)t;
  }

  double sa = 0.0, sb = 0.0;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      sa += a[i][j];
      sb += b[i * ny + j];
    }
  printf("sum a=%.6f sum b=%.6f a[5][7]=%.6f b[5*ny+7]=%.6f\n", sa, sb, a[5][7],
         b[5 * ny + 7]);
  free(b);
  return 0;
}
