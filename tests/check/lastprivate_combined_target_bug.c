/* The last iteration's value of a loop on a combined `target` construct, returned through
 * `lastprivate`: OpenMP maps such a scalar `tofrom`, but clang-19 keeps it firstprivate, so
 * the host prints its old value. A warning that names the compiler (the program is right by
 * the specification); `map(tofrom: ...)` beside the `lastprivate` works with every
 * compiler. A `lastprivate` on a `teams` nested in a plain `target` is lost under every
 * compiler (an OMP104 error, like the reduction of lost_scalar_bug.c). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *a = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = 0.5 * i;
  double last = 0.0;
#pragma omp target teams distribute parallel for map(to: a[0:n]) lastprivate(last)
  for (int i = 0; i < n; i++)
    last = 2.0 * a[i];
  printf("last = %.1f\n", last);
  free(a);
  return 0;
}
