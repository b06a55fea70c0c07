// The programmer says scalars are firstprivate (`defaultmap(firstprivate: scalar)`): the
// kernel uses `scale` as a scratch copy, and the host goes on with its own value (here only
// tested, so a sequential run prints the same).
#include <stdio.h>

int main(void) {
  int n = 64;
  double v[64];
  double scale = 2.0;
  for (int i = 0; i < n; i++)
    v[i] = i;

#pragma omp target map(tofrom: v) defaultmap(firstprivate: scalar)
  {
    scale = scale * 4.0; // a private copy: the host's `scale` stays 2.0
    for (int i = 0; i < n; i++)
      v[i] *= scale;
  }
  if (scale > 1.0)
    printf("scaled\n");

  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += v[i];
  printf("sum %.1f\n", s);
  return 0;
}
