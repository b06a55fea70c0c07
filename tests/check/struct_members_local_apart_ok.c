// Members of one local struct variable, mapped apart: the kernel computes `g.y` from `g.x`,
// the host then changes `g.x` (the device's `x` is not used again), and after the region
// copies `g.y` back the host prints it. Right: the write to `g.x` does not make `g.y` stale.
#include <stdio.h>

typedef struct {
  double x[64];
  double y[64];
} grid_t;

int main(void) {
  grid_t g;
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
