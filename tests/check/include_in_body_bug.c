// A kernel's loop body comes from a project header included inside the function
// (include/scale_step_body.h doubles a[i]). The kernel's writes stay on the device: the
// region maps `a` with `to` only, so the host prints the values it had before.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = i;
#pragma omp target data map(to: a[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
#include "include/scale_step_body.h"
    }
  }
  printf("a[7] = %.1f\n", a[7]);
  free(a);
  return 0;
}
