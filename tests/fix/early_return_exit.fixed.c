// A `return` between the kernels of a function: a structured `target data` region cannot hold
// it (OpenMP forbids leaving one by a jump), so the region is written as `target enter data`
// before the kernels and `target exit data` after them and before the `return`, which must
// still copy the first kernel's results back (the caller reads them on both paths).
#include <stdio.h>
#include <stdlib.h>

static int relax(float *v, int n, int steps) {
#pragma omp target enter data map(alloc: v[0:n])
#pragma omp target teams distribute parallel for firstprivate(n)
  for (int i = 0; i < n; i++)
    v[i] = (float)(i % 11);
  if (steps <= 0) {
    printf("no relaxation steps\n");
#pragma omp target exit data map(from: v[0:n])
    return 1;
  }
  for (int s = 0; s < steps; s++) {
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      v[i] = 0.5f * v[i] + 1.0f;
  }
#pragma omp target exit data map(from: v[0:n])
  return 0;
}

int main(void) {
  const int n = 1024;
  float *v = malloc(n * sizeof(float));
#pragma omp target data map(alloc: v[0:n])
  for (int steps = 0; steps <= 4; steps += 4) {
    int rc = relax(v, n, steps);
    double sum = 0;
#pragma omp target update from(v[0:n])
    for (int i = 0; i < n; i++)
      sum += v[i];
    printf("steps %d: rc %d sum %.3f\n", steps, rc, sum);
  }
  free(v);
  return 0;
}
