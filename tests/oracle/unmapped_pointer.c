/* Oracle test program: a kernel dereferences a malloc'd pointer (`field`) that is never
 * mapped. On the host "device" it still computes the right answer (same address space),
 * so the only evidence is the runtime's INFO lines: `use_address(field)[0] (implicit)` with
 * no "Mapping exists" line for it. `out` is mapped by target enter data, so it must NOT be
 * reported. */
#include <stdio.h>
#include <stdlib.h>

#define N 128

int main(void) {
  double *field = malloc(N * sizeof(double));
  double *out = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    field[i] = 0.25 * i;
    out[i] = 0.0;
  }
#pragma omp target enter data map(alloc: out[0:N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    out[i] = field[i] * field[i];
#pragma omp target exit data map(from: out[0:N])
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += out[i];
  printf("sum=%.4f\n", sum);
  free(field);
  free(out);
  return 0;
}
