// Exercises the combined constructs target parallel, target parallel for, target parallel for simd, target parallel loop, target simd.
#include <stdio.h>

#define N 384

int main(void) {
  double a[N], b[N], c[N];
  int hits = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (double)(i % 13);
    b[i] = 0.0;
    c[i] = 0.0;
  }

#pragma omp target parallel map(to: a) map(tofrom: hits) num_threads(4)
  {
#pragma omp for reduction(+: hits)
    for (int i = 0; i < N; i++)
      if (a[i] > 6.0)
        hits++;
  }

#pragma omp target parallel for map(to: a) map(from: b)
  for (int i = 0; i < N; i++)
    b[i] = a[i] + 1.0;

#pragma omp target parallel for simd map(to: a, b) map(from: c)
  for (int i = 0; i < N; i++)
    c[i] = a[i] * b[i];

#pragma omp target parallel loop map(tofrom: b)
  for (int i = 0; i < N; i++)
    b[i] = b[i] * 2.0;

  double dot = 0.0;
#pragma omp target simd map(to: b, c) map(tofrom: dot) reduction(+: dot)
  for (int i = 0; i < N; i++)
    dot += b[i] + c[i];

  printf("hits=%d b[5]=%.1f c[5]=%.1f dot=%.1f\n", hits, b[5], c[5], dot);
  return 0;
}
