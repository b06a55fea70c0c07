// The whole struct is mapped `tofrom`; inside the region the host changes `g.x[3]` and never
// sends it. At the end of the region the device's copy of `g` (with the old `x[3]`) comes
// back over the host's write: the host then prints the old value.
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
#pragma omp target data map(tofrom: g)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 64; i++)
      g.y[i] = g.x[i] + 1;
    g.x[3] = 7;
  }
  printf("%f %f\n", g.y[5], g.x[3]);
  return 0;
}
