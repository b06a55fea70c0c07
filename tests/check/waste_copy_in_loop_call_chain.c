// Copies repeated in a loop two calls away: `advance` maps the field on every call, `step`
// passes its arguments on under other names, and main calls `step` on every time step of a
// nest of loops. The region belongs around main's outer loop, written with main's names.
#include <stdio.h>
#include <stdlib.h>

static void advance(float *field, const float *source, int count) {
#pragma omp target teams distribute parallel for map(tofrom: field[0:count]) map(to: source[0:count])
  for (int i = 0; i < count; i++)
    field[i] = 0.9f * field[i] + 0.1f * source[i];
}

static void step(float *state, const float *forcing, int len) {
  advance(state, forcing, len);
}

int main(void) {
  const int cells = 6000;
  float *q = malloc(cells * sizeof *q);
  float *f = malloc(cells * sizeof *f);
  for (int i = 0; i < cells; i++) {
    q[i] = (float)(i % 11);
    f[i] = 1.0f + (float)(i % 3);
  }
  for (int outer = 0; outer < 4; outer++)
    for (int inner = 0; inner < 5; inner++)
      step(q, f, cells);
  double sum = 0.0;
  for (int i = 0; i < cells; i++)
    sum += q[i];
  printf("sum=%.4f\n", sum);
  free(q);
  free(f);
  return 0;
}
