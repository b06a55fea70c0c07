// A kernel written through a `_Pragma` macro maps its output `to` only, so the host reads
// stale data after it. The finding has no fix: the directive is the macro's text, which
// omplens does not rewrite.
#include <stdio.h>
#include <stdlib.h>

#define PRAGMA(x) _Pragma(#x)
#define OFFLOAD(clauses) PRAGMA(omp target teams distribute parallel for clauses)

int main(void) {
  int n = 1024;
  double *in = malloc(n * sizeof *in);
  double *out = malloc(n * sizeof *out);
  for (int i = 0; i < n; i++) {
    in[i] = (double)(i % 9);
    out[i] = 0.0;
  }

  OFFLOAD(map(to: in[0:n]) map(to: out[0:n]))
  for (int i = 0; i < n; i++)
    out[i] = in[i] * in[i];

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += out[i];
  printf("sum = %.1f\n", sum);
  free(in);
  free(out);
  return 0;
}
