// A `nowait` kernel ordered before a `target update` by task dependences: `depend(out:
// a[0])` names `a` for ordering only; the kernel still writes its mapped `a` (omplens took
// the depend item for a private copy, lost the kernel's writes and called the update
// redundant, OMP202).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 4096;
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 13);

#pragma omp target enter data map(to: a[0:n])
#pragma omp target teams distribute parallel for nowait depend(out: a[0])
  for (int i = 0; i < n; i++)
    a[i] = 2.0 * a[i] + 1.0;
#pragma omp target update from(a[0:n]) depend(in: a[0])

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += a[i];
  printf("sum = %.1f\n", sum);
#pragma omp target exit data map(delete: a[0:n])
  free(a);
  return 0;
}
