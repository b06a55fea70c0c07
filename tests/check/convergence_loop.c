/* An iterative solver: the arrays stay on the device for the whole `while` loop; each sweep
 * computes the largest change with a max-reduction into `diff`, mapped tofrom explicitly
 * (the host sets it to 0 before each sweep and tests it after). */
#include <stdio.h>

#define N 512

int main(void) {
  double x[N], xnew[N], b[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    b[i] = (double)(i % 8);
  }

  int iters = 0;
  double diff = 1.0;
#pragma omp target data map(tofrom: x) map(alloc: xnew) map(to: b)
  while (diff > 1e-3 && iters < 200) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      xnew[i] = 0.5 * (b[i] + 0.5 * (x[(i + N - 1) % N] + x[(i + 1) % N]));
    diff = 0.0;
#pragma omp target teams distribute parallel for map(tofrom: diff) reduction(max: diff)
    for (int i = 0; i < N; i++) {
      double d = xnew[i] > x[i] ? xnew[i] - x[i] : x[i] - xnew[i];
      if (d > diff)
        diff = d;
      x[i] = xnew[i];
    }
    iters++;
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += x[i];
  printf("iters=%d sum=%.6f\n", iters, sum);
  return 0;
}
