// A struct member the kernel writes, mapped `to` by the region around it: the kernel's implicit
// `tofrom` of `g.y` copies nothing back (the region still holds it) and the region's `to` drops
// the results. The finding names the member, says the results were dropped, and offers
// `tofrom` (before: the stale object was the whole `g`, and the reason given was the inner copy
// back that did not happen).
#include <stdio.h>
typedef struct { double x[64]; double y[64]; } grid_t;
int main(void) {
  grid_t g;
  for (int i = 0; i < 64; i++) { g.x[i] = i; g.y[i] = 0; }
#pragma omp target data map(to: g.x) map(to: g.y)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 64; i++)
      g.y[i] = g.x[i] + 1;
  }
  printf("%f\n", g.y[5]);
  return 0;
}
