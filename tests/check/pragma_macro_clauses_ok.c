// Clauses written through macros on `#pragma omp` lines: the compiler expands them (OpenMP
// pragmas are macro-expanded), so must omplens: a map list in an object-like macro, an
// `if(target: ...)` made by a function-like macro, a section in a macro with a parameter.
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define OFFLOAD_IF(cond) if(target: cond)
#define INPUTS map(to: a[0:N])
#define SECTION(p, n) p[0:n]

int main(int argc, char **argv) {
  int on_device = argc > 0;
  double *a = malloc(N * sizeof *a);
  double *b = malloc(N * sizeof *b);
  for (int i = 0; i < N; i++)
    a[i] = (double)(i % 17);

#pragma omp target teams distribute parallel for INPUTS map(from: SECTION(b, N)) OFFLOAD_IF(on_device)
  for (int i = 0; i < N; i++)
    b[i] = 2.0 * a[i] + 1.0;

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += b[i];
  printf("sum = %.1f\n", sum);
  free(a);
  free(b);
  return 0;
}
