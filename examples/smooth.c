/* A smoothing loop with hand-written mappings that omplens check takes apart: the
 * coefficients are copied to the device on every step, the state goes back and forth
 * around each kernel, and the final norm is read on the host after a kernel whose copy back
 * never happens (the enclosing region keeps the data on the device). */
#include <stdio.h>
#include <stdlib.h>

#define STEPS 40

int main(void) {
  int n = 4096;
  double *u = (double *)malloc(n * sizeof(double));
  double *w = (double *)malloc(n * sizeof(double));
  double *c = (double *)malloc(3 * sizeof(double));
  c[0] = 0.25;
  c[1] = 0.5;
  c[2] = 0.25;
  for (int i = 0; i < n; i++)
    u[i] = (double)(i % 17);

  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for map(to: c[0:3]) map(tofrom: u[0:n]) map(from: w[0:n])
    for (int i = 1; i < n - 1; i++)
      w[i] = c[0] * u[i - 1] + c[1] * u[i] + c[2] * u[i + 1];
#pragma omp target teams distribute parallel for map(tofrom: u[0:n], w[0:n])
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i];
  }

#pragma omp target data map(tofrom: u[0:n])
  {
#pragma omp target teams distribute parallel for map(from: u[0:n])
    for (int i = 0; i < n; i++)
      u[i] = u[i] * 0.5;
    double norm = 0.0;
    for (int i = 0; i < n; i++)
      norm += u[i] * u[i];
    printf("norm=%.3f\n", norm);
  }
  free(u);
  free(w);
  free(c);
  return 0;
}
