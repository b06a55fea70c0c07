// Members of one global struct variable mapped apart: the kernel computes `g.y` from `g.x`,
// the host then changes `g.x` (on purpose: the device's `x` is not used again), and after the
// region copies `g.y` back the host prints it, which is right (the oracle agrees). Followed as
// one object, the host write to `g.x` made "`g`" stale on the device and the copy back
// brought that staleness home: a false OMP101 on the read of `g.y` (a certain error, then a
// warning). Each member is its own object now: no finding.
#include <stdio.h>

typedef struct {
  double x[64];
  double y[64];
} grid_t;

grid_t g;

int main(void) {
  for (int i = 0; i < 64; i++) {
    g.x[i] = i;
    g.y[i] = 0;
  }
#pragma omp target data map(to: g.x) map(from: g.y)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 64; i++)
      g.y[i] = g.x[i] + 1;
    g.x[3] = 7;
  }
  printf("%f %f\n", g.y[5], g.x[3]);
  return 0;
}
