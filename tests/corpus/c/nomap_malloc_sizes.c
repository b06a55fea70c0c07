// No data mapping at all: malloced arrays whose sizes are held in variables, updated by kernels and summed on the host.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int nx = 40, ny = 25;
  int total = nx * ny;
  double *field = (double *)malloc(sizeof(double) * total);
  double *tmp = (double *)malloc(sizeof(double) * total);
  int *mask = (int *)malloc(sizeof(int) * total);

  for (int i = 0; i < total; i++) {
    field[i] = (double)(i % nx);
    mask[i] = (i / nx) % 2;
  }

  for (int it = 0; it < 4; it++) {
#pragma omp target teams distribute parallel for collapse(2)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        int k = j * nx + i;
        tmp[k] = mask[k] ? field[k] * 0.5 : field[k] + 1.0;
      }
#pragma omp target teams distribute parallel for
    for (int k = 0; k < total; k++)
      field[k] = tmp[k];
  }

  double s = 0.0;
  for (int k = 0; k < total; k++)
    s += field[k];
  printf("field[0]=%.4f field[nx]=%.4f sum=%.4f\n", field[0], field[nx], s);
  free(field);
  free(tmp);
  free(mask);
  return 0;
}
