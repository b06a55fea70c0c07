// Exercises defaultmap with several behaviours (tofrom, to, from, firstprivate, present, none, default) and categories (scalar, aggregate, pointer).
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(void) {
  int counter = 0;
  double grid[N];
  double result[N];
  double *heap = (double *)malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) {
    grid[i] = (double)i;
    heap[i] = 0.0;
    result[i] = 0.0;
  }

  /* scalars become tofrom: counter comes back */
#pragma omp target defaultmap(tofrom: scalar)
  {
    for (int i = 0; i < N; i++)
      if (grid[i] > 31.0)
        counter++;
  }
  printf("counter=%d\n", counter);

  /* aggregates only copied in; scalars firstprivate */
  int offset = 5;
#pragma omp target defaultmap(to: aggregate) defaultmap(firstprivate: scalar) map(from: result)
  for (int i = 0; i < N; i++)
    result[i] = grid[i] + (double)offset;
  printf("result[3]=%.1f\n", result[3]);

  /* from: aggregate written only */
#pragma omp target defaultmap(from: aggregate)
  for (int i = 0; i < N; i++)
    result[i] = -1.0 * (double)i;
  printf("result[7]=%.1f\n", result[7]);

  /* present: data must already be on the device */
#pragma omp target enter data map(to: grid) map(to: heap[0:N])
#pragma omp target defaultmap(present: aggregate) defaultmap(default: pointer)
  for (int i = 0; i < N; i++)
    heap[i] = grid[i] * 0.5;
#pragma omp target exit data map(release: grid) map(from: heap[0:N])
  printf("heap[10]=%.1f\n", heap[10]);

  /* none: every referenced variable of that category needs an explicit map */
  double scale = 2.0;
#pragma omp target defaultmap(none: scalar) defaultmap(none: aggregate) map(to: scale) map(tofrom: result)
  for (int i = 0; i < N; i++)
    result[i] = result[i] * scale;

  /* default: back to the implicit rules */
#pragma omp target defaultmap(default: aggregate) defaultmap(default: scalar)
  for (int i = 0; i < N; i++)
    grid[i] = result[i] + scale;

  /* no category: applies to every variable */
  int touched = 0;
#pragma omp target defaultmap(tofrom)
  for (int i = 0; i < N; i += 8) {
    grid[i] += 1.0;
    touched++;
  }
  printf("touched=%d\n", touched);

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += grid[i];
  printf("sum(grid)=%.1f\n", s);
  free(heap);
  return 0;
}
