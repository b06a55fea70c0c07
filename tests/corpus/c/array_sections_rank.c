// Exercises array sections of rank 1-3: a[lo:len], a[:len], a[lo:], p[lo:len] in target update, m[0:n][0:k] and cube[0:2][0:5][0:6] on fixed arrays.
#include <stdio.h>
#include <stdlib.h>

#define N 100
#define R 6
#define C 8

int main(void) {
  double a[N];
  double m[R][C];
  double cube[4][5][6];
  int n = 4, k = 5, kc = C;
  double *p = (double *)malloc(sizeof(double) * N);

  for (int i = 0; i < N; i++) {
    a[i] = (double)i;
    p[i] = 0.0;
  }
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = (double)(i * C + j);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      for (int l = 0; l < 6; l++)
        cube[i][j][l] = 1.0;

  /* rank 1: lower bound + length, length only, lower bound only */
#pragma omp target map(tofrom: a[10:20])
  for (int i = 10; i < 30; i++)
    a[i] *= 2.0;
#pragma omp target map(tofrom: a[:10])
  for (int i = 0; i < 10; i++)
    a[i] = -a[i];
#pragma omp target map(tofrom: a[90:])
  for (int i = 90; i < N; i++)
    a[i] += 0.5;

  /* pointer sections (strided sections are avoided: clang-19 copies them contiguously) */
#pragma omp target data map(tofrom: p[0:N])
  {
#pragma omp target
    for (int i = 0; i < N; i++)
      p[i] = a[i] * 0.5;
    for (int i = 50; i < 75; i++)
      p[i] = 0.0;
#pragma omp target update to(p[50:25])
  }

  /* rank 2: leading rows, all columns / sub-block */
#pragma omp target map(tofrom: m[0:n][0:kc])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < kc; j++)
      m[i][j] += 100.0;
#pragma omp target map(tofrom: m[2:3][0:C])
  for (int i = 2; i < 5; i++)
    m[i][0] = 0.0;

  /* rank 3 */
#pragma omp target map(tofrom: cube[0:2][0:5][0:6])
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int l = 0; l < 6; l++)
        cube[i][j][l] = (double)(i + j + l);
#pragma omp target map(tofrom: cube[1:][:5][:6])
  for (int i = 1; i < 4; i++)
    for (int j = 0; j < k; j++)
      cube[i][j][0] += 10.0;

  double sa = 0.0, sp = 0.0, sm = 0.0, sc = 0.0;
  for (int i = 0; i < N; i++) {
    sa += a[i];
    sp += p[i];
  }
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      sm += m[i][j];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      for (int l = 0; l < 6; l++)
        sc += cube[i][j][l];
  printf("sum(a)=%.1f sum(p)=%.1f sum(m)=%.1f sum(cube)=%.1f\n", sa, sp, sm, sc);
  free(p);
  return 0;
}
