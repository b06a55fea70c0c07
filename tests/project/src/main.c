/* A kernel doubles `v` inside a `target data` region; `normalize`, defined in
 * src/normalize.c, then reads and rewrites it on the host, before any copy back: it reads
 * the host's stale values (OMP101 at the call, line 21), and the region's `tofrom` then
 * copies the device's values over what it wrote. */
#include <stdio.h>
#include <stdlib.h>

void normalize(double *v, int n);
double checksum(const double *v, int n);

int main(void) {
  int n = 1000;
  double *v = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    v[i] = i;
#pragma omp target data map(tofrom: v[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      v[i] = 2 * v[i];
    normalize(v, n);
  }
  printf("%.6f\n", checksum(v, n));
  free(v);
  return 0;
}
