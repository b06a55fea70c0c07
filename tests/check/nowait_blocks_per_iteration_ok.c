// One `nowait` kernel launched by each iteration of a host loop, each launch scaling its
// own block of `v` (`v[b * BS + i]`, `i` in `0..BS`): the launches touch disjoint blocks, so
// they may run at once without a race; `taskwait` comes before anything reads `v`. (Each
// launch names its block, present already: the oracle matches the runtime's lines about an
// implicitly mapped pointer to its launch, which asynchronous launches on a loaded machine
// can interleave.)
#include <stdio.h>
#include <stdlib.h>
#define NB 8
#define BS 256

int main(void) {
  double *v = (double *)malloc(NB * BS * sizeof(double));
  for (int i = 0; i < NB * BS; i++)
    v[i] = i % 9;
#pragma omp target enter data map(to: v[0:NB * BS])
  for (int b = 0; b < NB; b++) {
#pragma omp target teams distribute parallel for nowait map(tofrom: v[b * BS:BS])
    for (int i = 0; i < BS; i++)
      v[b * BS + i] = 2.0 * v[b * BS + i] + b;
  }
#pragma omp taskwait
#pragma omp target exit data map(from: v[0:NB * BS])
  double s = 0.0;
  for (int i = 0; i < NB * BS; i++)
    s += v[i];
  printf("sum %.1f\n", s);
  free(v);
  return 0;
}
