// A `nowait` kernel doubles `x` and copies it back; the host prints `x` right after the
// launch, before anything waits for the kernel: a data race (the copy back may not have
// happened yet).
// The oracle runs the task on the encountering thread, where it completes before the race
// can show (with libomp's helper threads the result changes from run to run):
// oracle-env: LIBOMP_USE_HIDDEN_HELPER_TASK=0
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1024;
  double *x = malloc(n * sizeof *x);
  for (int i = 0; i < n; i++)
    x[i] = (double)(i % 7);

#pragma omp target teams distribute parallel for map(tofrom: x[0:n]) nowait
  for (int i = 0; i < n; i++)
    x[i] = 2.0 * x[i];

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += x[i];
#pragma omp taskwait
  printf("sum = %.1f\n", sum);
  free(x);
  return 0;
}
