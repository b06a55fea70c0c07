/* A callee's kernel updates an array mapped `tofrom`: the region copies the
 * results back before the caller reads the array on the host. */
#include <stdio.h>
#include <stdlib.h>

#define N 100

static void relax(double *u, int n) {
#pragma omp target teams distribute parallel for map(tofrom: u[0:n])
  for (int i = 0; i < n; i++)
    u[i] = u[i] * 0.25;
}

int main(void) {
  double *u = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    u[i] = i;
  relax(u, N);
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += u[i];
  printf("s=%.2f\n", s);
  free(u);
  return 0;
}
