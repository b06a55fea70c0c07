/* A local struct holding its size and two fixed-size arrays; kernels in a time-step loop
 * read and write g.v[i] and g.w[i]. Implicitly the whole struct is mapped tofrom on every
 * launch; one region around the loop maps it once. */
#include <stdio.h>

#define N 1024
#define STEPS 10

struct grid {
  int n;
  double v[N];
  double w[N];
};

int main(void) {
  struct grid g;
  g.n = N;
  for (int i = 0; i < g.n; i++) {
    g.v[i] = (double)(i % 13);
    g.w[i] = 1.0;
  }

#pragma omp target data map(tofrom: g)
  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < g.n; i++)
      g.w[i] = 0.5 * g.w[i] + 0.25 * g.v[i];

#pragma omp target teams distribute parallel for
    for (int i = 0; i < g.n; i++)
      g.v[i] = g.v[i] - g.w[i] + (double)(i % 2);
  }

  double sv = 0.0, sw = 0.0;
  for (int i = 0; i < g.n; i++) {
    sv += g.v[i];
    sw += g.w[i];
  }
  printf("sum v=%.6f sum w=%.6f v[7]=%.6f w[7]=%.6f\n", sv, sw, g.v[7], g.w[7]);
  return 0;
}
