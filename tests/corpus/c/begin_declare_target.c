// Exercises `begin declare target`/`end declare target` and the old `declare target`...`end declare target` pair with device-only helper functions.
#include <stdio.h>

#define N 200

#pragma omp begin declare target
static double square(double x) { return x * x; }
static double poly(double x) { return 3.0 * square(x) - 2.0 * x + 1.0; }
double bias = 0.5;
#pragma omp end declare target

#pragma omp declare target
static int clamp_index(int i, int n) {
  if (i < 0)
    return 0;
  if (i >= n)
    return n - 1;
  return i;
}
static double smooth_at(const double *a, int i, int n) {
  return 0.25 * a[clamp_index(i - 1, n)] + 0.5 * a[i] + 0.25 * a[clamp_index(i + 1, n)];
}
#pragma omp end declare target

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = (double)(i % 10) * 0.5;

  /* poly/square/clamp_index/smooth_at are called only from device code */
#pragma omp target teams distribute parallel for map(to: a) map(from: b)
  for (int i = 0; i < N; i++)
    b[i] = poly(a[i]) + bias;

#pragma omp target teams distribute parallel for map(tofrom: b) map(from: a)
  for (int i = 0; i < N; i++)
    a[i] = smooth_at(b, i, N);

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += a[i];
  printf("a[0]=%.4f a[1]=%.4f a[N-1]=%.4f sum=%.4f\n", a[0], a[1], a[N - 1], s);
  return 0;
}
