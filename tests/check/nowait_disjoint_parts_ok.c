// Two `nowait` kernels fill one array: the first its interior, the second its two end points.
// They write no element in common and neither copies the array (the region does, at its
// end, after the `taskwait`): no race, nothing to wait for between them.
// The oracle runs the tasks on the encountering thread, as for the other `nowait` programs:
// oracle-env: LIBOMP_USE_HIDDEN_HELPER_TASK=0
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *u = malloc(n * sizeof *u);
#pragma omp target data map(from: u[0:n])
  {
#pragma omp target teams distribute parallel for nowait
    for (int i = 1; i < n - 1; i++)
      u[i] = 0.5 * i;
#pragma omp target nowait
    {
      u[0] = 1.0;
      u[n - 1] = 2.0;
    }
#pragma omp taskwait
  }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += u[i];
  printf("sum = %.1f\n", s);
  free(u);
  return 0;
}
