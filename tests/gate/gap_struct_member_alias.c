/* The arrays a kernel needs sit behind pointer members of a struct built in another function
 * (`make`), copied into local aliases before the kernel (`const int *idx = t.idx;`) and passed
 * to a device function: nothing in `run` says how long they are, and the struct keeps no member
 * that holds their length, so omplens cannot map them.
 * `fix` must not write a program whose kernel still uses them unmapped: they are gaps, named. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int *idx;
  double *val;
} table;

#pragma omp declare target
static double pick(const int *idx, const double *val, int i) { return val[idx[i]]; }
#pragma omp end declare target

static table make(int n) {
  table t;
  t.idx = (int *)malloc(sizeof(int) * n);
  t.val = (double *)malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    t.idx[i] = (i * 5) % n;
    t.val[i] = i;
  }
  return t;
}

static double run(table t, int n, int lookups) {
  const int *idx = t.idx;
  const double *val = t.val;
  double *out = (double *)malloc(sizeof(double) * lookups);
#pragma omp target teams distribute parallel for
  for (int i = 0; i < lookups; i++)
    out[i] = pick(idx, val, i % n);
  double sum = 0;
  for (int i = 0; i < lookups; i++)
    sum += out[i];
  free(out);
  return sum;
}

int main(void) {
  table t = make(256);
  printf("%.1f\n", run(t, 256, 1000));
  free(t.idx);
  free(t.val);
  return 0;
}
