// The kernel that fills `a` and the `target enter data` that maps it are in a project header
// (include/fill_enter.h). The host then reads `a` with no copy back, and `a` stays mapped to
// the end. Findings about the header's code are placed on the `#include` line, and say where
// in the header they are (as clang does for a problem in an included file).
#include <stdio.h>
#include <stdlib.h>
#include "include/fill_enter.h"

int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = -1.0;
  fill_on_device(a, n);
  printf("a[7] = %.1f\n", a[7]);
  free(a);
  return 0;
}
