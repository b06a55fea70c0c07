// As include_in_body_bug.c, fixed: the kernel's loop body comes from a project header
// included inside the function (include/scale_step_body.h doubles a[i]), and the region
// maps `a` with `tofrom`, so the host prints the doubled values.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = i;
#pragma omp target data map(tofrom: a[0:n])
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
