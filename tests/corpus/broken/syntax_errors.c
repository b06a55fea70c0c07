// BROKEN ON PURPOSE (must NOT compile): a C syntax error in the middle of a function and half-typed OpenMP pragmas (`omp targ`, unclosed map, misspelled `mapp`).
#include <stdio.h>

#define N 64

static void good_before(double *a, int n) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] += 1.0;
}

static void half_typed(double *a, double *b, int n) {
#pragma omp targ
  for (int i = 0; i < n; i++)
    a[i] = 0.0;

#pragma omp target map(to: a
  for (int i = 0; i < n; i++)
    b[i] = a[i];

#pragma omp target mapp(to: a)
  for (int i = 0; i < n; i++)
    b[i] += a[i];

  double s = 0.0
  for (int i = 0; i < n; i++ {
    s += b[i] * ;
  }
  printf("%f\n", s);
}

static void good_after(double *a, int n) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= 2.0;
}

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = b[i] = 1.0;
  good_before(a, N);
  half_typed(a, b, N);
  good_after(a, N);
  return 0;
}
