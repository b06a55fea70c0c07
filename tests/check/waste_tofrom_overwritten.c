/* Unused copy in: `out` is mapped tofrom, but the kernel overwrites every element before
 * reading any, so the copy to the device is wasted; map(from:) is enough. */
#include <stdio.h>

#define N 5000

int main(void) {
  double in[N], out[N];
  for (int i = 0; i < N; i++) {
    in[i] = (double)(i % 23);
    out[i] = 0.0;
  }

#pragma omp target teams distribute parallel for map(to: in) map(tofrom: out)
  for (int i = 0; i < N; i++)
    out[i] = in[i] * in[i] - in[i];

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += out[i];
  printf("sum=%.1f\n", sum);
  return 0;
}
