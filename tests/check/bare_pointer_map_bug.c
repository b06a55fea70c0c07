// `map(tofrom: p)` names the bare pointer: it maps the pointer variable (8 bytes), not the
// data it points to, and attaches nothing. The kernel then writes through the host address
// it was given: on a GPU it faults; on the host "device" of the test oracle it happens to
// write the host's own array, so the output is right there.
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(void) {
  double *p = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    p[i] = i;
#pragma omp target map(tofrom: p)
  for (int i = 0; i < N; i++)
    p[i] = 2.0 * p[i];
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += p[i];
  printf("%.1f\n", sum);
  free(p);
  return 0;
}
