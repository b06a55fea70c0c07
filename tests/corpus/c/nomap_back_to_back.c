// No data mapping at all: several back-to-back kernels over the same local arrays with no host access in between.
#include <stdio.h>

#define N 300

int main(void) {
  double a[N], b[N], c[N], d[N];
  for (int i = 0; i < N; i++) {
    a[i] = (double)(i % 10);
    b[i] = (double)(i % 3);
  }

#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    c[i] = a[i] + b[i];

#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    d[i] = c[i] * c[i];

#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    a[i] = d[i] - b[i];

#pragma omp target parallel for
  for (int i = 0; i < N; i++)
    b[i] = a[i] * 0.5 + c[i];

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += b[i];
  printf("b[7]=%.2f sum(b)=%.2f\n", b[7], s);
  return 0;
}
