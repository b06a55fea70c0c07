// Exercises asynchronous offload: target/target update/enter/exit data with nowait and depend(in/out/inout), synchronised by taskwait.
#include <stdio.h>

#define N 256

int main(void) {
  double a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = (double)i;
    b[i] = 1.0;
    c[i] = 0.0;
  }

#pragma omp parallel
#pragma omp single
  {
#pragma omp target enter data map(to: a, b) map(alloc: c) nowait depend(out: a, b, c)

#pragma omp target teams distribute parallel for nowait depend(inout: a) depend(in: b)
    for (int i = 0; i < N; i++)
      a[i] = a[i] + b[i];

#pragma omp target teams distribute parallel for nowait depend(in: a) depend(out: c)
    for (int i = 0; i < N; i++)
      c[i] = 2.0 * a[i];

#pragma omp target update from(c) nowait depend(inout: c)

#pragma omp target exit data map(from: a) map(release: b) map(delete: c) nowait depend(inout: a, b, c)

#pragma omp taskwait
  }

  double sa = 0.0, sc = 0.0;
  for (int i = 0; i < N; i++) {
    sa += a[i];
    sc += c[i];
  }
  printf("sum(a)=%.1f sum(c)=%.1f\n", sa, sc);

  /* a second wave: independent kernels, then taskwait on the host thread */
  double x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    y[i] = 0.0;
  }
#pragma omp target map(from: x) nowait depend(out: x)
  for (int i = 0; i < N; i++)
    x[i] = (double)(i % 3);
#pragma omp target map(from: y) nowait depend(out: y)
  for (int i = 0; i < N; i++)
    y[i] = (double)(i % 5);
#pragma omp taskwait
  double sxy = 0.0;
  for (int i = 0; i < N; i++)
    sxy += x[i] * y[i];
  printf("dot(x,y)=%.1f\n", sxy);
  return 0;
}
