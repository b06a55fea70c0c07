/* Globals across functions: main maps the global `field` with `to` around calls to
 * `relax`, whose kernel updates the global in place (it finds it present, so nothing is
 * copied). Nothing copies `field` back, and main prints the initial values. */
#include <stdio.h>

#define N 2048

double field[N];

static void relax(double w) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    field[i] = (1.0 - w) * field[i] + w * (double)(i % 4);
}

int main(void) {
  for (int i = 0; i < N; i++)
    field[i] = (double)(i % 8);

#pragma omp target data map(to: field)
  {
    relax(0.5);
    relax(0.25);
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += field[i];
  printf("sum=%.4f\n", sum);
  return 0;
}
