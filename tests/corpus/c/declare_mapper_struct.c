// Exercises `declare mapper` (default and named) for a struct with pointer members, used via map(tofrom: s) and map(mapper(id), ...).
/* Note: clang-19's runtime leaks the base struct's mapping when a mapper is used (llvm issue #60106),
   so each struct object is mapped through a mapper by exactly one construct. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  double *val;
  int *idx;
} SparseVec;

/* default mapper: always map the payload with the struct */
#pragma omp declare mapper(SparseVec v) map(v, v.val[0:v.n], v.idx[0:v.n])
/* named mapper that only maps the values */
#pragma omp declare mapper(values_only : SparseVec v) map(v, v.val[0:v.n])

static SparseVec make_vec(int n) {
  SparseVec v;
  v.n = n;
  v.val = (double *)malloc(sizeof(double) * n);
  v.idx = (int *)malloc(sizeof(int) * n);
  for (int i = 0; i < n; i++) {
    v.val[i] = (double)(i + 1);
    v.idx[i] = (i * 7) % 50;
  }
  return v;
}

int main(void) {
  SparseVec v = make_vec(40);
  double dense[50];
  for (int i = 0; i < 50; i++)
    dense[i] = 0.0;

  /* default mapper applies */
#pragma omp target teams distribute parallel for map(tofrom: v) map(tofrom: dense)
  for (int k = 0; k < v.n; k++) {
#pragma omp atomic
    dense[v.idx[k]] += v.val[k];
  }

  /* named mapper on a second vector: only values are needed */
  SparseVec w = make_vec(30);
#pragma omp target teams distribute parallel for map(mapper(values_only), tofrom: w)
  for (int k = 0; k < w.n; k++)
    w.val[k] = w.val[k] * 10.0;

  double s = 0.0;
  for (int i = 0; i < 50; i++)
    s += dense[i];
  printf("dense sum=%.1f dense[7]=%.1f w.val[3]=%.1f\n", s, dense[7], w.val[3]);
  free(v.val);
  free(v.idx);
  free(w.val);
  free(w.idx);
  return 0;
}
