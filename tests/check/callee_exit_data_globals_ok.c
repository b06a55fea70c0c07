// Global arrays mapped by one function (`setup`) and unmapped by another (`teardown`, with
// `from` for the result), as NPB-style codes do: the caller's kernel finds them present,
// and the copy back in `teardown` makes the host's read of `out` valid.
#include <stdio.h>
#define N 200

double in[N], out[N];

static void setup(void) {
#pragma omp target enter data map(to: in) map(alloc: out)
}

static void teardown(void) {
#pragma omp target exit data map(release: in) map(from: out)
}

int main(void) {
  for (int i = 0; i < N; i++)
    in[i] = i % 7;
  setup();
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    out[i] = 3.0 * in[i] + 1.0;
  teardown();
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += out[i];
  printf("sum %.1f\n", s);
  return 0;
}
