// Each chunk of `a` is mapped to, computed on and copied back from its own device
// (`device(d)` in loops). Every device has its own data environment; omplens models one, so
// what it finds in such a function is uncertain and says so, with no fix. (It warns about
// chunks "on some paths": it does not sum the sections a loop maps; those warnings are false.)
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 4096, ndev = 2, chunk = n / ndev;
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 3);

  for (int d = 0; d < ndev; d++) {
#pragma omp target enter data map(to: a[d * chunk:chunk]) device(d)
  }
  for (int d = 0; d < ndev; d++) {
#pragma omp target teams distribute parallel for device(d)
    for (int i = d * chunk; i < (d + 1) * chunk; i++)
      a[i] = a[i] * 2.0;
  }
  for (int d = 0; d < ndev; d++) {
#pragma omp target exit data map(from: a[d * chunk:chunk]) device(d)
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += a[i];
  printf("sum = %.1f\n", sum);
  free(a);
  return 0;
}
