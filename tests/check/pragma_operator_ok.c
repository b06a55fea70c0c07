// Directives written as `_Pragma` operators, directly and through macros (one stringizes its
// clause argument): omplens reads them after expansion, as the compiler does.
#include <stdio.h>
#include <stdlib.h>

#define PRAGMA(x) _Pragma(#x)
#define KERNEL PRAGMA(omp target teams distribute parallel for)
#define DATA(clauses) PRAGMA(omp target data clauses)

int main(void) {
  int n = 2048;
  double *x = malloc(n * sizeof *x);
  double *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; i++) {
    x[i] = (double)(i % 5);
    y[i] = 1.0;
  }

  DATA(map(to: x[0:n]) map(tofrom: y[0:n]))
  {
    KERNEL
    for (int i = 0; i < n; i++)
      y[i] += 3.0 * x[i];
    _Pragma("omp target update from(y[0:n])")
    printf("y[7] = %.1f\n", y[7]);
    KERNEL
    for (int i = 0; i < n; i++)
      y[i] *= 2.0;
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += y[i];
  printf("sum = %.1f\n", sum);
  free(x);
  free(y);
  return 0;
}
