// A pointer set to another variable's storage names that storage in a clause. `p = a;` in
// the region: `map(p[:0])` looks up `a`'s mapping, already present, and the kernel updates
// `a`'s device copy. `int *q = grid;` of a stack array: `map(tofrom: q[0:N])` maps `grid`.
#include <stdio.h>
#include <stdlib.h>
#define N 100

int main(void) {
  int *a = malloc(N * sizeof(int));
  int grid[N];
  int *p;
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    grid[i] = 2 * i;
  }
#pragma omp target data map(tofrom: a[0:N])
  {
    p = a;
#pragma omp target map(p[:0])
    for (int i = 0; i < N; ++i)
      p[i] += 1;
  }
  int *q = grid;
#pragma omp target map(tofrom: q[0:N])
  for (int i = 0; i < N; ++i)
    q[i] += 3;

  long s = 0;
  for (int i = 0; i < N; ++i)
    s += a[i] + grid[i];
  printf("sum %ld\n", s);
  free(a);
  return 0;
}
