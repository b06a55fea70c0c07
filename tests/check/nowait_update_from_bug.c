// A kernel squares `v` on the device; the copy back is a `target update from(...) nowait`, and
// the host sums `v` right after it, before the `taskwait` that waits for the copy: the host
// may read the old values.
// The oracle runs the task on the encountering thread, where it completes before the race
// can show (with libomp's helper threads the result changes from run to run):
// oracle-env: LIBOMP_USE_HIDDEN_HELPER_TASK=0
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 2048;
  double *v = malloc(n * sizeof *v);
  for (int i = 0; i < n; i++)
    v[i] = (double)(i % 9);

#pragma omp target enter data map(to: v[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    v[i] = v[i] * v[i];
#pragma omp target update from(v[0:n]) nowait

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += v[i];
#pragma omp taskwait
  printf("sum = %.1f\n", sum);
#pragma omp target exit data map(delete: v[0:n])
  free(v);
  return 0;
}
