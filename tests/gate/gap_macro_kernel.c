// The kernel is written through a `_Pragma` macro with no map clauses. omplens does not
// rewrite a macro's text, so it cannot add the maps the kernel needs: `fix` names the
// kernel's data as gaps and writes nothing (it used to append clauses after the macro's use,
// which does not compile, or to strip the whole use with `--replace`).
#include <stdio.h>
#include <stdlib.h>

#define KERNEL _Pragma("omp target teams distribute parallel for")

int main(void) {
  int n = 1000;
  double *v = malloc(n * sizeof *v);
  for (int i = 0; i < n; i++)
    v[i] = (double)i;
  KERNEL
  for (int i = 0; i < n; i++)
    v[i] = v[i] * 0.5;
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += v[i];
  printf("sum = %.1f\n", sum);
  free(v);
  return 0;
}
