// Both kernels carry `depend` clauses, but on different list items: the `nowait` kernel that
// clears `dist` declares `out: dist[0]`, the next kernel only `in: val[0]`. Dependences order
// tasks that share a list item (and are not both `in`), so nothing orders these two and the
// second kernel may accumulate into `dist` while the first still clears it.
// The oracle runs the task on the encountering thread, where it completes before the race
// can show (with libomp's helper threads the result changes from run to run):
// oracle-env: LIBOMP_USE_HIDDEN_HELPER_TASK=0
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 2048;
  int *dist = malloc(n * sizeof *dist);
  int *val = malloc(n * sizeof *val);
  for (int i = 0; i < n; i++)
    val[i] = i % 11;

#pragma omp target data map(to: val[0:n]) map(from: dist[0:n])
  {
#pragma omp target teams distribute parallel for nowait depend(out: dist[0])
    for (int i = 0; i < n; i++)
      dist[i] = 0;

#pragma omp target teams distribute parallel for depend(in: val[0])
    for (int i = 0; i < n; i++)
      dist[i] += 3 * val[i];
#pragma omp taskwait
  }
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += dist[i];
  printf("sum = %ld\n", sum);
  free(dist);
  free(val);
  return 0;
}
