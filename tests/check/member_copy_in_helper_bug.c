// As member_copy_in_helper_ok.c, but the exit releases the data without copying it back:
// the sum reads the host copy, which the helper's kernels (through its local copy of the
// member) left stale. (Before: the kernels' writes were not seen, so this was missed and
// the copy in was called unused instead.)
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
#pragma omp target exit data map(release: u[0:n])
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += u[i];
  printf("%.6f\n", s);
  free(u);
  return 0;
}
