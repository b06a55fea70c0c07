/* A struct holding pointers: the function copies the members into locals and maps the
 * sections behind them, so the kernel never dereferences the host struct on the device. */
#include <stdio.h>
#include <stdlib.h>

struct Mesh {
  int n;
  double *coord;
  double *value;
};

static void evaluate(struct Mesh *m) {
  int n = m->n;
  const double *coord = m->coord;
  double *value = m->value;
#pragma omp target teams distribute parallel for map(to: coord[0:n]) map(from: value[0:n])
  for (int i = 0; i < n; i++)
    value[i] = coord[i] * coord[i] - 2.0 * coord[i];
}

int main(void) {
  struct Mesh m;
  m.n = 3000;
  m.coord = (double *)malloc(m.n * sizeof(double));
  m.value = (double *)malloc(m.n * sizeof(double));
  for (int i = 0; i < m.n; i++)
    m.coord[i] = (double)(i % 9) - 4.0;

  evaluate(&m);

  double sum = 0.0;
  for (int i = 0; i < m.n; i++)
    sum += m.value[i];
  printf("sum=%.1f\n", sum);
  free(m.coord);
  free(m.value);
  return 0;
}
