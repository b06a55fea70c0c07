// Round trips between two functions that each map the same array: `scale` copies `v` back
// when its kernel ends and `shift`, called right after with no host access in between,
// copies it to the device again.
#include <stdio.h>
#include <stdlib.h>

static void scale(double *v, int n, double s) {
#pragma omp target teams distribute parallel for map(tofrom: v[0:n])
  for (int i = 0; i < n; i++)
    v[i] *= s;
}

static void shift(double *v, int n, double d) {
#pragma omp target teams distribute parallel for map(tofrom: v[0:n])
  for (int i = 0; i < n; i++)
    v[i] += d;
}

int main(void) {
  const int n = 10000;
  double *v = malloc(n * sizeof *v);
  for (int i = 0; i < n; i++)
    v[i] = (double)(i % 13);
  scale(v, n, 0.5);
  shift(v, n, 2.0);
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += v[i];
  printf("sum=%.3f\n", sum);
  free(v);
  return 0;
}
