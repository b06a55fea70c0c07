// Exercises the OpenMP 5.2 spelling `declare target enter(x)` (with device_type) and `begin declare target device_type(any)`; needs -fopenmp-version=52 (clang-19 defaults to 5.1, which only accepts to(x)).
#include <stdio.h>

#define N 128

double lut[N];
int lut_size = N;
#pragma omp declare target enter(lut, lut_size) device_type(any)

static double lookup(int i) { return lut[i % lut_size]; }
#pragma omp declare target enter(lookup)

#pragma omp begin declare target device_type(any)
static double blend(double a, double b) { return 0.75 * a + 0.25 * b; }
#pragma omp end declare target

int main(void) {
  double out[N];
  for (int i = 0; i < N; i++)
    lut[i] = (double)((i * 5) % 32);
#pragma omp target update to(lut)

#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < N; i++)
    out[i] = blend(lookup(i), lookup(i + 1));

#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    lut[i] = lut[i] * 2.0;
#pragma omp target update from(lut[0:16])

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += out[i];
  printf("out[0]=%.2f out[31]=%.2f sum=%.2f lut[3]=%.1f\n", out[0], out[31], s, lut[3]);
  return 0;
}
