// A struct whose type has a default mapper (`declare mapper(Grid g)`) is mapped by name: the
// mapper maps the data behind its pointer member too, so the kernel's `g.cell[i]` is mapped
// (no "pointer held in a struct" finding) and its writes come back with the struct.
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  double *cell;
} Grid;

#pragma omp declare mapper(Grid g) map(g, g.cell[0:g.n])

int main(void) {
  Grid g;
  g.n = 256;
  g.cell = (double *)malloc(sizeof(double) * g.n);
  for (int i = 0; i < g.n; i++)
    g.cell[i] = i;
#pragma omp target teams distribute parallel for map(tofrom: g)
  for (int i = 0; i < g.n; i++)
    g.cell[i] = 2.0 * g.cell[i] + 1.0;
  double s = 0.0;
  for (int i = 0; i < g.n; i++)
    s += g.cell[i];
  printf("sum %.1f\n", s);
  free(g.cell);
  return 0;
}
