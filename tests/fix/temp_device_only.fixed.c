/* A temporary array used only by kernels: the first kernel writes tmp, the next reads it,
 * and the host never touches it. Implicit rules copy tmp both ways at every launch; the
 * ideal mapping is map(alloc: tmp) once around the loop. */
#include <stdio.h>

#define N 2048
#define STEPS 10

int main(void) {
  double u[N], tmp[N];
  for (int i = 0; i < N; i++)
    u[i] = (double)(i % 128 == 0 ? 256 : 0);

#pragma omp target data map(tofrom: u) map(alloc: tmp)
  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) {
      double left = (i > 0) ? u[i - 1] : 0.0;
      double right = (i < N - 1) ? u[i + 1] : 0.0;
      tmp[i] = 0.25 * left + 0.5 * u[i] + 0.25 * right;
    }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      u[i] = tmp[i];
  }

  double total = 0.0;
  for (int i = 0; i < N; i++)
    total += u[i];
  printf("total=%.6f u[0]=%.6f u[128]=%.6f u[133]=%.6f\n", total, u[0], u[128], u[133]);
  return 0;
}
