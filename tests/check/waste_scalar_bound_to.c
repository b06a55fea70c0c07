/* Scalar mapped `to`: the period `period` is mapped to the device on a kernel that only
 * reads it; firstprivate (the implicit rule for scalars) would pass it with the launch. */
#include <stdio.h>

#define N 8192

int main(void) {
  float v[N];
  int period = 6;
  for (int i = 0; i < N; i++)
    v[i] = (float)(i % 9);

#pragma omp target teams distribute parallel for map(to: period) map(tofrom: v)
  for (int i = 0; i < N; i++)
    v[i] = v[i] * 2.0f + (float)(i % period);

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += v[i];
  printf("sum=%.1f\n", sum);
  return 0;
}
