// A lookup table held in a struct of pointers, read by a kernel through the struct
// (`t.val[t.idx[i]]`), as XSBench and RSBench read their grids. The kernel maps `t`
// implicitly: that copies the struct's bytes, the pointers' host addresses, and none of
// the data they point to. On a GPU the kernel follows host addresses. Mapping the data
// through the members (`map(to: t.idx[:t.n_idx], t.val[:t.n_val])`) attaches them.
// (Before: no finding, and `fix --replace` on the mapped version wrote this program.)
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int *idx;
  double *val;
  int n_idx, n_val;
} table;

int main(void) {
  table t;
  t.n_idx = 1000;
  t.n_val = 100;
  t.idx = malloc(t.n_idx * sizeof(int));
  t.val = malloc(t.n_val * sizeof(double));
  for (int i = 0; i < t.n_idx; i++)
    t.idx[i] = (i * 7) % t.n_val;
  for (int i = 0; i < t.n_val; i++)
    t.val[i] = 0.5 * i;
  int n = t.n_idx;
  double *out = malloc(n * sizeof(double));
#pragma omp target teams distribute parallel for map(from: out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = t.val[t.idx[i]];
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += out[i];
  printf("%.1f\n", s);
  free(t.idx);
  free(t.val);
  free(out);
  return 0;
}
