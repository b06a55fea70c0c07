// Members of one struct variable mapped apart, and a real bug on one of them: the host
// changes `g.x[3]` inside the region and the second kernel reads the device's old `g.x`.
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
#pragma omp target data map(to: g.x) map(tofrom: g.y)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 64; i++)
      g.y[i] = g.x[i] + 1;
    g.x[3] = 7;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 64; i++)
      g.y[i] += g.x[i];
  }
  printf("%f\n", g.y[3]);
  return 0;
}
