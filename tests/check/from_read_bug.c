/* Uninitialized device data through `from`: the kernel accumulates into `hist`, which the
 * host set to 1 (add-one smoothing), but `from` allocates the device copy without copying
 * those values in. */
#include <stdio.h>

#define N 2048
#define BINS 16

int main(void) {
  int data[N];
  int hist[BINS];
  for (int i = 0; i < N; i++)
    data[i] = (i * 7 + 3) % BINS;
  for (int b = 0; b < BINS; b++)
    hist[b] = 1;

#pragma omp target map(to: data) map(from: hist)
  for (int i = 0; i < N; i++)
    hist[data[i]] += 1;

  for (int b = 0; b < BINS; b++)
    printf("%d ", hist[b]);
  printf("\n");
  return 0;
}
