// An early `return` between two kernels that frees the buffer first: the region is written
// as `target enter data` and `target exit data`, and the `exit data` on the early path goes
// before the `free` (unmapping after it would name freed memory). (This program was a gap:
// no region could hold the `return`.)
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = 1000 + argc;
  double *buf = (double *)malloc(sizeof(double) * n);
#pragma omp target enter data map(alloc: buf[0:n])
#pragma omp target teams distribute parallel for firstprivate(n)
  for (int i = 0; i < n; i++)
    buf[i] = i * 0.5;
  if (argc > 5) {
#pragma omp target exit data map(release: buf[0:n])
    free(buf);
    return 1;
  }
  double peak = 0.0;
#pragma omp target teams distribute parallel for reduction(max : peak) firstprivate(n)
  for (int i = 0; i < n; i++)
    peak = buf[i] > peak ? buf[i] : peak;
  printf("peak=%.1f\n", peak);
#pragma omp target exit data map(release: buf[0:n])
  free(buf);
  return 0;
}
