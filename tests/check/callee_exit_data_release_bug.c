// Global arrays mapped by one function (`setup`) and unmapped by another (`teardown`), as
// NPB-style codes do, but `teardown` releases `out` without copying it back: the kernel
// wrote it on the device, and the host reads its old values.
#include <stdio.h>
#define N 200

double in[N], out[N];

static void setup(void) {
#pragma omp target enter data map(to: in) map(alloc: out)
}

static void teardown(void) {
#pragma omp target exit data map(release: in) map(release: out)
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
