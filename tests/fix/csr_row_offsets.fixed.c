/* Power iteration on a sparse matrix kept in compressed-row form. `cols` and `vals` are
 * only ever indexed between `start[r]` and `start[r + 1]`, through pointers the kernel
 * makes (`row = cols + start[r]`), and `main` does not see their allocation (`build` makes
 * them): no loop bound and no allocation tells their length. omplens maps
 * `cols[start[0]:start[n] - start[0]]`, taking the row offsets to never decrease, and says
 * so in a note. */
#include <stdio.h>
#include <stdlib.h>

#define ITERS 5

struct csr {
  int n;
  int *start;
  int *cols;
  double *vals;
};

static struct csr build(int n) {
  struct csr m;
  m.n = n;
  m.start = (int *)malloc((n + 1) * sizeof(int));
  m.start[0] = 0;
  for (int r = 0; r < n; r++)
    m.start[r + 1] = m.start[r] + 1 + r % 5;
  m.cols = (int *)malloc(m.start[n] * sizeof(int));
  m.vals = (double *)malloc(m.start[n] * sizeof(double));
  for (int r = 0; r < n; r++)
    for (int k = m.start[r]; k < m.start[r + 1]; k++) {
      m.cols[k] = (r * 7 + k * 13) % n;
      m.vals[k] = 1.0 / (1 + k % 9);
    }
  return m;
}

int main(void) {
  int n = 2000;
  struct csr m = build(n);
  const int *start = m.start;
  const int *cols = m.cols;
  const double *vals = m.vals;
  double *x = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    x[i] = 1.0;
#pragma omp target data map(to: start[0:n + 1], cols[start[0]:start[n] - start[0]], vals[start[0]:start[n] - start[0]]) map(tofrom: x[0:n]) map(alloc: y[0:n])
  for (int it = 0; it < ITERS; it++) {
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int r = 0; r < n; r++) {
      const int count = start[r + 1] - start[r];
      const int *row = cols + start[r];
      const double *v = vals + start[r];
      double s = 0.0;
      for (int k = 0; k < count; k++)
        s += v[k] * x[row[k]];
      y[r] = s;
    }
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      x[i] = y[i] / 4.0;
  }
  double t = 0;
  for (int i = 0; i < n; i++)
    t += x[i];
  printf("%.6f\n", t);
  free(m.start);
  free(m.cols);
  free(m.vals);
  free(x);
  free(y);
  return 0;
}
