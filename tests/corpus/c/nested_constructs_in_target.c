// Exercises non-combined teams/distribute/parallel/for/simd/loop constructs nested inside `target` regions.
#include <stdio.h>

#define N 256
#define M 16

int main(void) {
  double a[N], b[N], m[M][M];
  long total = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (double)(i % 7);
    b[i] = 0.0;
  }

#pragma omp target map(to: a) map(from: b)
#pragma omp teams
#pragma omp distribute parallel for
  for (int i = 0; i < N; i++)
    b[i] = a[i] * 3.0;

#pragma omp target map(tofrom: b)
  {
#pragma omp teams distribute
    for (int i = 0; i < N; i++)
      b[i] += 1.0;
  }

#pragma omp target map(from: m)
  {
#pragma omp parallel for
    for (int i = 0; i < M; i++) {
#pragma omp simd
      for (int j = 0; j < M; j++)
        m[i][j] = (double)(i - j);
    }
  }

#pragma omp target map(tofrom: a) map(to: b)
#pragma omp teams
  {
#pragma omp distribute
    for (int i = 0; i < N; i++)
      a[i] = b[i] - a[i];
  }

#pragma omp target map(tofrom: total) map(to: a)
#pragma omp parallel
  {
#pragma omp for reduction(+: total)
    for (int i = 0; i < N; i++)
      total += (long)a[i];
  }

#pragma omp target map(tofrom: a)
#pragma omp loop
  for (int i = 0; i < N; i++)
    a[i] = a[i] * 0.5;

#pragma omp target map(tofrom: b)
#pragma omp teams loop
  for (int i = 0; i < N; i++)
    b[i] = b[i] + 0.25;

#pragma omp target map(tofrom: a)
#pragma omp parallel loop
  for (int i = 0; i < N; i++)
    a[i] += 1.0;

  double tr = 0.0;
  for (int i = 0; i < M; i++)
    tr += m[i][M - 1 - i];
  printf("a[3]=%.2f b[3]=%.2f total=%ld anti-trace=%.1f\n", a[3], b[3], total, tr);
  return 0;
}
