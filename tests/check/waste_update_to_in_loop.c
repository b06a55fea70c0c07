/* Update in a loop: the filter `h` is allocated on the device and sent with
 * `target update to` at every step, but the host never changes it inside the loop. One
 * update before the loop (or map(to:) on the region) sends it once. */
#include <stdio.h>

#define N 2048
#define STEPS 10

int main(void) {
  double h[N], s[N];
  for (int i = 0; i < N; i++) {
    h[i] = (i % 3 == 0) ? 0.5 : 0.25;
    s[i] = (double)(i % 6);
  }

#pragma omp target data map(alloc: h) map(tofrom: s)
  for (int t = 0; t < STEPS; t++) {
#pragma omp target update to(h)
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      s[i] = h[i] * s[i] + h[(i + 1) % N];
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += s[i];
  printf("sum=%.6f\n", sum);
  return 0;
}
