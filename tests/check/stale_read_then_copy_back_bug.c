/* The host reads the kernel's results inside the region, before the region copies them
 * back: a stale read (OMP101). The copy back at the end of the region is still needed, since
 * the device did write the data; before, reporting the stale read made the check take the
 * two copies as in sync, and the region's `tofrom` was reported as copying back data the
 * device never wrote (OMP205). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1024;
  float *x = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    x[i] = (float)(i % 8);
#pragma omp target data map(tofrom: x[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      x[i] = x[i] * 0.5f + 1.0f;
    printf("inside: x[3] = %.4f\n", x[3]);
  }
  printf("after: x[3] = %.4f\n", x[3]);
  free(x);
  return 0;
}
