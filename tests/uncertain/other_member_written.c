// Members of one struct variable: the kernel computes `g.y` from `g.x`, the host then changes
// `g.x` (on purpose: the device's `x` is not used again), and after the region copies `g.y`
// back the host prints it, which is right (the oracle agrees). The `memset` of the whole `g`
// keeps it one object for omplens (members are followed apart only where nothing uses the
// variable whole), so the host write to `g.x` makes "`g`" stale on the device and the copy
// back brings that staleness home. The read of `g.y` is a warning that says the write was to
// another member, with no fix.
#include <stdio.h>
#include <string.h>

typedef struct {
  double x[64];
  double y[64];
} grid_t;

int main(void) {
  grid_t g;
  memset(&g, 0, sizeof g);
  for (int i = 0; i < 64; i++)
    g.x[i] = i;
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
