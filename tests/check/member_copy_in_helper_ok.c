// A grid struct whose helper copies the data pointer into a local (`double *u = g->u;`)
// and launches its kernel through it, as TeaLeaf's solvers do. The caller maps the same data
// under its own local copy of the member for the whole time loop: the kernels read and write
// the device copy, and the exit copies it back. (Before: the helper's summary dropped what
// its kernel did through the local copy, so the copy in looked unused (OMP204) and the copy
// back useless (OMP205), and the suggested `alloc` broke the program.)
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double *u;
  int n;
} grid;

static void relax(grid *g) {
  double *u = g->u;
  int n = g->n;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    u[i] = 0.5 * u[i] + 1.0;
}

int main(void) {
  grid g;
  g.n = 256;
  g.u = malloc(g.n * sizeof(double));
  for (int i = 0; i < g.n; i++)
    g.u[i] = (double)(i % 17);
  double *u = g.u;
  int n = g.n;
#pragma omp target enter data map(to: u[0:n])
  for (int t = 0; t < 8; t++)
    relax(&g);
#pragma omp target exit data map(from: u[0:n])
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += u[i];
  printf("%.6f\n", s);
  free(u);
  return 0;
}
