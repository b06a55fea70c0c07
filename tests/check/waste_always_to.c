/* Redundant copy with `always`: `x` is present and valid on the device (the region copied
 * it in, nothing changed it since), but the second kernel maps it `always, to`, which forces
 * another copy of the same values onto the device. */
#include <stdio.h>

#define N 3000

int main(void) {
  double x[N], y[N], z[N];
  for (int i = 0; i < N; i++)
    x[i] = (double)(i % 14) - 7.0;

#pragma omp target data map(to: x) map(from: y, z)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      y[i] = x[i] * x[i];
#pragma omp target teams distribute parallel for map(always, to: x)
    for (int i = 0; i < N; i++)
      z[i] = 2.0 * x[i] + y[i];
  }

  double sy = 0.0, sz = 0.0;
  for (int i = 0; i < N; i++) {
    sy += y[i];
    sz += z[i];
  }
  printf("sy=%.1f sz=%.1f\n", sy, sz);
  return 0;
}
