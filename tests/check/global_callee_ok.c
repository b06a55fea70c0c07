/* Working twin of global_callee_bug.c: main maps the global `tofrom`, so the values the
 * callee's kernels computed come back when the region ends. */
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

#pragma omp target data map(tofrom: field)
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
