// Members mapped apart in a time loop: each step copies `g.y` home with `target update from`
// and sends a changed `g.x` with `target update to`. After the last update the device never
// writes `g.y` again, so the copy back of `map(tofrom: g.y)` at the end of the region is
// waste (`to` is enough). Followed as one object, `g` was said instead of `g.y`, with the
// size of the whole struct, at the `g.x` item, which is mapped `to` (a false OMP205).
#include <stdio.h>
typedef struct { double x[64]; double y[64]; int n; } grid_t;
int main(void) {
  grid_t g;
  g.n = 64;
  for (int i = 0; i < g.n; i++) { g.x[i] = i; g.y[i] = 0; }
#pragma omp target data map(to: g.x) map(tofrom: g.y)
  {
    for (int t = 0; t < 3; t++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < 64; i++)
        g.y[i] += g.x[i];
#pragma omp target update from(g.y)
      printf("%f\n", g.y[3]);
      g.x[1] = t;
#pragma omp target update to(g.x)
    }
  }
  printf("%f\n", g.y[1]);
  return 0;
}
