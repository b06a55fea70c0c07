/* Round trip: two consecutive kernels each map `v` tofrom. The first copies it back to the
 * host at its end and the second copies it straight back to the device, with no host access
 * in between. One region around both kernels would keep v on the device. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 6000;
  double *v = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    v[i] = (double)(i % 33);

#pragma omp target teams distribute parallel for map(tofrom: v[0:n])
  for (int i = 0; i < n; i++)
    v[i] = v[i] * 2.0 + 1.0;

#pragma omp target teams distribute parallel for map(tofrom: v[0:n])
  for (int i = 0; i < n; i++)
    v[i] = v[i] * 0.5 - 3.0;

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += v[i];
  printf("sum=%.2f\n", sum);
  free(v);
  return 0;
}
