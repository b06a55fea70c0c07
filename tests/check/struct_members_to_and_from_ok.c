// Two members of one struct variable mapped apart: `g.x` goes to the device only, `g.y` and
// `z` come back. A second kernel reads `g.y` again on the device. Nothing is wasted: `g.x` is
// never copied back (it is mapped `to`), and the device writes `g.y`, which the host prints.
#include <stdio.h>

typedef struct {
  double x[64];
  double y[64];
} grid_t;

int main(void) {
  grid_t g;
  double z[64];
  for (int i = 0; i < 64; i++) {
    g.x[i] = i;
    g.y[i] = 0;
    z[i] = 0;
  }
#pragma omp target data map(to: g.x) map(from: g.y, z)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 64; i++)
      g.y[i] = 2 * g.x[i];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 64; i++)
      z[i] = g.y[i] + 1;
  }
  printf("%f %f\n", g.y[5], z[7]);
  return 0;
}
