/* A callee maps a global buffer, a kernel fills it, and the callee unmaps it with `release`
 * (no copy back); the caller then calls another function that reads it on the host. */
#include <stdio.h>
#include <stdlib.h>

#define N 128

double *field;

static void fill(void) {
#pragma omp target enter data map(alloc: field[0:N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    field[i] = 0.5 * i;
#pragma omp target exit data map(release: field[0:N])
}

static double sum(void) {
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += field[i];
  return s;
}

int main(void) {
  field = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    field[i] = 0.0;
  fill();
  printf("sum=%.1f\n", sum());
  free(field);
  return 0;
}
