/* Sections by symbolic ranges (DawnCC): each callee touches part of a malloc'd array through
 * an index omplens must bound — a `while` counter, a `do` counter, a local set by a
 * conditional, a band whose bounds are MIN/MAX of a guard, a non-affine `row * n + j` through
 * locals, a product of two counters (`p[i * j]`) — and one (`v[ix[i]]`) that no range
 * bounds, which falls back to the allocation. The kernels have no map clauses: the
 * pointers' data is unmapped until omplens maps it. */
#include <stdio.h>
#include <stdlib.h>

#define N 64
#define M 32
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

static void scale_tail(double *x, int n) {
#pragma omp target teams distribute parallel for map(tofrom: x[3:n - 3]) firstprivate(n)
  for (int k = 0; k < 1; k++) {
    int j = 3;
    while (j < n) {
      x[j] = x[j] * 2.0;
      j++;
    }
  }
}

static void grid(double *a, int m, int n) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:m * n]) firstprivate(m, n)
  for (int i = 0; i < m; i++) {
    int row = i * n;
    for (int j = 0; j < n; j++) {
      int at = row + j;
      a[at] += 1.0;
    }
  }
}

static void neighbours(double *y, const double *src, int n, int left) {
#pragma omp target teams distribute parallel for map(to: src[0:n]) map(from: y[1:n - 2]) firstprivate(left, n)
  for (int i = 1; i < n - 1; i++) {
    int from = left ? i - 1 : i + 1;
    y[i] = src[from] * 0.5;
  }
}

static void band(double *z, const double *w, int n) {
#pragma omp target teams distribute parallel for map(to: w[0:n]) map(from: z[0:n]) firstprivate(n)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = MAX(0, i - 1); j < MIN(n, i + 2); j++)
      s += w[j];
    z[i] = s;
  }
}

static void gather(double *v, const int *ix, int n) {
#pragma omp target teams distribute parallel for map(to: ix[0:n]) firstprivate(n)
  for (int i = 0; i < n; i++)
    v[ix[i]] += 1.0;
}

static void products(double *r, const double *p, int m, int k) {
#pragma omp target teams distribute parallel for map(to: p[0:m * k - k - m + 2]) map(from: r[0:m]) firstprivate(k, m)
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < k; j++)
      s += p[i * j];
    r[i] = s;
  }
}

static void ramp(double *q) {
#pragma omp target map(tofrom: q[0:N])
  {
    int i = 0;
    do {
      q[i] = i;
      i++;
    } while (i < N);
  }
}

int main(void) {
  int n = N * M;
  double *x = malloc(sizeof(double) * n);
  double *a = malloc(sizeof(double) * N * M);
  double *y = malloc(sizeof(double) * n);
  double *src = malloc(sizeof(double) * n);
  double *z = malloc(sizeof(double) * n);
  double *w = malloc(sizeof(double) * n);
  double *v = malloc(sizeof(double) * n);
  double *q = malloc(sizeof(double) * n);
  int *ix = malloc(sizeof(int) * n);
  double *r = malloc(sizeof(double) * M);
  for (int i = 0; i < n; i++) {
    x[i] = y[i] = z[i] = v[i] = q[i] = a[i] = i;
    src[i] = n - i;
    w[i] = i % 7;
    ix[i] = (i * 7) % n;
  }
#pragma omp target data map(to: src[0:n], w[0:n], ix[0:n]) map(tofrom: x[3:n - 3], a[0:N * M], y[1:n - 2], z[0:n], v[0:n], q[0:N]) map(from: r[0:M])
  {
    scale_tail(x, n);
    grid(a, N, M);
    neighbours(y, src, n, 1);
    neighbours(y, src, n, 0);
    band(z, w, n);
    gather(v, ix, n);
    products(r, src, M, N);
    ramp(q);
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] + a[i] + y[i] + z[i] + v[i] + q[i] + (i < M ? r[i] : 0);
  printf("%.1f\n", s);
  free(x), free(a), free(y), free(src), free(z), free(w), free(v), free(q), free(ix), free(r);
  return 0;
}
