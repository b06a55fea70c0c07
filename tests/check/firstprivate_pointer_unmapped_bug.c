// A pointer named `firstprivate` on a kernel while nothing maps what it points to: its copy
// holds the host address (OpenMP 5.2 translates it only to data that is present), so the
// kernel's writes go nowhere the host can see on a GPU (it faults); on the host "device" of
// the test oracle they land in the host's array, so the output is right there.
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(void) {
  double *p = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    p[i] = i;
#pragma omp target firstprivate(p)
  for (int i = 0; i < N; i++)
    p[i] = 2.0 * p[i];
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += p[i];
  printf("%.1f\n", sum);
  free(p);
  return 0;
}
