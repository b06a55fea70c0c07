// A named mapper that only copies in (`map(to: ...)`) decides the map type of what it
// maps: `map(mapper(input), tofrom: p)` copies `p.x` to the device and never back (the
// combined type is `to`), so the host reads the old values after the kernel wrote new ones.
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  double *x;
} Particles;

#pragma omp declare mapper(input : Particles q) map(to: q, q.x[0:q.n])

int main(void) {
  Particles p;
  p.n = 128;
  p.x = (double *)malloc(sizeof(double) * p.n);
  for (int i = 0; i < p.n; i++)
    p.x[i] = i;
#pragma omp target teams distribute parallel for map(mapper(input), tofrom: p)
  for (int i = 0; i < p.n; i++)
    p.x[i] = p.x[i] * 4.0;
  double s = 0.0;
  for (int i = 0; i < p.n; i++)
    s += p.x[i];
  printf("sum %.1f\n", s);
  free(p.x);
  return 0;
}
