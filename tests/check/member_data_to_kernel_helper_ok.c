// A driver passes a struct's data pointer to the function that launches the kernel
// (`scale(g->u, g->n)`), as TeaLeaf's `run_*` wrappers pass `chunk->u` to their kernels.
// The caller maps the data under a local copy of the member around its calls of the
// driver. The driver's summary now says what the kernel does to the member's data. (Before:
// passing `g->u` counted as a host read and write of it, so the copy in was unused (OMP204),
// the kernel's read stale (OMP102) and the host's final read an error (OMP101).)
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double *u;
  int n;
} grid;

static void scale(double *u, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    u[i] = u[i] * 1.5;
}

static void step(grid *g) { scale(g->u, g->n); }

int main(void) {
  grid g;
  g.n = 128;
  g.u = malloc(g.n * sizeof(double));
  for (int i = 0; i < g.n; i++)
    g.u[i] = (double)(i % 5);
  double *u = g.u;
  int n = g.n;
#pragma omp target enter data map(to: u[0:n])
  for (int t = 0; t < 4; t++)
    step(&g);
#pragma omp target exit data map(from: u[0:n])
  printf("%.3f %.3f\n", u[3], u[n - 1]);
  free(u);
  return 0;
}
