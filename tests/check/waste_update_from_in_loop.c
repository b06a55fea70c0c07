/* Update in a loop, device to host: a kernel builds the lookup table `lut` once, before the
 * loop; inside the loop the host reads it, and a `target update from` fetches it at every
 * step although no kernel in the loop writes it. One update before the loop suffices. */
#include <stdio.h>

#define N 1024
#define STEPS 8

int main(void) {
  double lut[N], x[N];
  for (int i = 0; i < N; i++)
    x[i] = (double)(i % 16);

  double host_total = 0.0;
#pragma omp target data map(alloc: lut) map(tofrom: x)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      lut[i] = (double)((i * i) % 10) * 0.5;

    for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        x[i] = x[i] * 0.5 + lut[(i + t) % N];
#pragma omp target update from(lut)
      host_total += lut[t * 17 % N];
    }
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += x[i];
  printf("sum=%.6f host_total=%.2f\n", sum, host_total);
  return 0;
}
