// Members of one struct variable: the kernel computes `g.y` from `g.x`, the host then changes
// `g.x` (on purpose: the device's `x` is not used again), and after the region copies `g.y`
// back the host prints it, which is right (the oracle agrees). omplens follows `g` as one
// object, so the host write to `g.x` makes "`g`" stale on the device and the copy back
// brings that staleness home: the read of `g.y` was a certain OMP101 error. It is a warning
// now that says the write was to another member, with no fix.
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
