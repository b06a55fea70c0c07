/* Each step's first kernel writes every element of `corner` (eight per cell, `8 * i + k`
 * through a local index) before the second reads it, so the device copy needs nothing from
 * the host: `map(alloc:)`, though `corner` comes from a helper omplens cannot see into as an
 * allocation of fresh memory. `half` gets only four of each eight written (holes), so its
 * host contents must be copied in. */
#include <stdio.h>
#include <stdlib.h>

#define STEPS 3

static double *make(int n) {
  double *p = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    p[i] = 2.0;
  return p;
}

int main(void) {
  int n = 1000;
  double *cell = make(n);
  double *corner = make(8 * n);
  double *half = make(8 * n);
  double *out = make(n);
#pragma omp target data map(to: cell[0:n], half[0:8 * n]) map(tofrom: out[0:n]) map(alloc: corner[0:8 * n])
  for (int s = 0; s < STEPS; s++) {
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < 8; k++) {
        int j = 8 * i + k;
        corner[j] = cell[i] * k;
      }
      for (int k = 0; k < 4; k++)
        half[8 * i + k] = cell[i] + k;
    }
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++) {
      double t = 0;
      for (int k = 0; k < 8; k++)
        t += corner[8 * i + k] + half[8 * i + k];
      out[i] = t;
      cell[i] = cell[i] * 0.5;
    }
  }
  double t = 0;
  for (int i = 0; i < n; i++)
    t += out[i];
  printf("%.3f\n", t);
  free(cell);
  free(corner);
  free(half);
  free(out);
  return 0;
}
