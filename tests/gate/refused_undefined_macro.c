/* The gate refuses omplens's rewrite here: the kernel indexes `grid` through `perm`, so its
 * section comes from the allocation, `make()`'s `malloc(LEN * sizeof(double))`, written with
 * the macro's name; but `LEN` is `#undef`'d before `main`, so the rewritten file does not
 * compile (`use of undeclared identifier 'LEN'`). Nothing is written; the original compiles
 * and runs. (omplens reads a file's macros without their scope.) */
#include <stdio.h>
#include <stdlib.h>

#define LEN 1000
static double *make(void) { return (double *)malloc(LEN * sizeof(double)); }
#undef LEN

int main(void) {
  double *grid = make();
  int *perm = (int *)malloc(1000 * sizeof(int));
  for (int i = 0; i < 1000; i++) {
    grid[i] = i;
    perm[i] = (i * 7) % 1000;
  }
  for (int step = 0; step < 4; step++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 1000; i++)
      grid[perm[i]] = grid[perm[i]] * 0.5;
  }
  double s = 0;
  for (int i = 0; i < 1000; i++)
    s += grid[i];
  printf("%.2f\n", s);
  free(grid);
  free(perm);
  return 0;
}
