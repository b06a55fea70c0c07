// Exercises `target data` enclosing several kernels, nested target data, map(alloc:) temporaries and map(from:) results.
#include <stdio.h>

#define N 512

static double x[N], y[N], z[N], work[N];

int main(void) {
  double alpha = 2.5;
  for (int i = 0; i < N; i++) {
    x[i] = (double)(i % 17);
    y[i] = (double)(i % 5);
  }

#pragma omp target data map(to: x, y) map(from: z)
  {
#pragma omp target data map(alloc: work)
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        work[i] = alpha * x[i];

#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        z[i] = work[i] + y[i];
    }

#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      z[i] = z[i] * 0.5;
  }

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += z[i];
  printf("z[0]=%.2f z[100]=%.2f z[N-1]=%.2f\n", z[0], z[100], z[N - 1]);
  printf("sum(z) = %.2f\n", s);
  return 0;
}
