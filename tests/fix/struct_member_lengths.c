// A table of materials lives in a struct, each array beside the member that holds its length,
// filled by helpers (two of them return the allocation they make). The kernel reads the
// arrays through local copies and a device function whose indices come from the data, which
// no loop bounds: the sections come from the length members, since every store of the
// program pairs each array with its length.
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int *counts;      // counts[m]: entries of material m
  double *weights;  // weights[m * width + j], j < counts[m]
  long n_counts;
  long n_weights;
  int width;
} Table;

static int *make_counts(void) {
  int *c = (int *)malloc(6 * sizeof(int));
  for (int m = 0; m < 6; m++)
    c[m] = 1 + (m * 3) % 5;
  return c;
}

static double *make_weights(const int *counts, int *width) {
  int rows = 6;
  *width = 0;
  for (int m = 0; m < rows; m++)
    if (counts[m] > *width)
      *width = counts[m];
  double *w = (double *)malloc(rows * (*width) * sizeof(double));
  for (int m = 0; m < rows; m++)
    for (int j = 0; j < *width; j++)
      w[m * (*width) + j] = 0.5 * m + j;
  return w;
}

static Table build(void) {
  Table t;
  t.counts = make_counts();
  t.n_counts = 6;
  t.weights = make_weights(t.counts, &t.width);
  t.n_weights = t.n_counts * t.width;
  return t;
}

#pragma omp declare target
static double score(int m, const int *counts, const double *weights, int width) {
  double s = 0.0;
  for (int j = 0; j < counts[m]; j++)
    s += weights[m * width + j];
  return s;
}
#pragma omp end declare target

static void run(Table t, const int *pick, int lookups, double *out) {
  const int *counts = t.counts;
  const double *weights = t.weights;
  const int width = t.width;
  for (int rep = 0; rep < 3; rep++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < lookups; i++)
      out[i] += score(pick[i], counts, weights, width);
  }
}

int main(void) {
  Table t = build();
  const int lookups = 1000;
  int *pick = (int *)malloc(lookups * sizeof(int));
  double *out = (double *)malloc(lookups * sizeof(double));
  for (int i = 0; i < lookups; i++) {
    pick[i] = (i * 7) % 6;
    out[i] = 0.0;
  }
  run(t, pick, lookups, out);
  double sum = 0.0;
  for (int i = 0; i < lookups; i++)
    sum += out[i];
  printf("sum %.3f\n", sum);
  free(pick);
  free(out);
  free(t.counts);
  free(t.weights);
  return 0;
}
