/* Two `target update from` inside loops that OMP207 must not offer to move after the loop:
 * - one runs only in the first iteration (`if (t == 0)`): after the loop it would copy the
 *   last iteration's results instead of the first's (HeCBench goulash checks the first);
 * - one is followed in the same iteration by a kernel that writes the data again: after the
 *   loop it would copy what that later kernel left, not what the update copied.
 * The host then reads copies older than the device's (OMP101 on some paths); here the later
 * writes leave the same values, so the output does not show it. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 512, steps = 6;
  double *x = malloc(n * sizeof(double));
  double *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    x[i] = y[i] = 0;
#pragma omp target data map(alloc: x[0:n], y[0:n])
  {
    for (int t = 0; t < steps; t++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        x[i] = (double)(i % 10);
      if (t == 0) {
#pragma omp target update from(x[0:n])
      }
    }
    for (int t = 0; t < steps; t++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        y[i] = 0.5 * (i % 8);
#pragma omp target update from(y[0:n])
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        y[i] = y[i] < 0 ? -y[i] : y[i];
    }
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] + y[i];
  printf("%.1f\n", s);
  free(x);
  free(y);
  return 0;
}
