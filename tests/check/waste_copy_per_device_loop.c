// The loop offloads the same work to every device in turn: `device(d)` gives each iteration
// another device, with a data environment of its own, so the copy on every iteration is the
// only way each device gets the data. A `target data` region around the loop (the usual
// answer to OMP201) would keep the data on the default device only, and its copy back at the
// end would overwrite what the other devices computed. omplens models one device: the finding
// says so and offers no fix.
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif
int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = i;
  int nd = 1;
#ifdef _OPENMP
  nd = omp_get_num_devices();
#endif
  for (int d = 0; d < nd; d++) {
#pragma omp target teams distribute parallel for device(d) map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
      a[i] += 1;
  }
  // (The number of devices differs between runs: the check, not the value, is printed.)
  printf("%s\n", a[10] == 10.0 + nd ? "each device added one" : "WRONG");
  free(a);
  return 0;
}
