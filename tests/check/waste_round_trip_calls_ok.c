// Two functions that each map the same array, with a host read between their calls: the
// copy back is needed, and the copy to the device after it is not a round trip.
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
  double peak = v[n - 1];
  shift(v, n, peak);
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += v[i];
  printf("sum=%.3f\n", sum);
  free(v);
  return 0;
}
