/* Working twin of from_read_bug.c: the histogram the kernel accumulates into is mapped
 * `tofrom`, so the initial counts the host wrote reach the device. */
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

#pragma omp target map(to: data) map(tofrom: hist)
  for (int i = 0; i < N; i++)
    hist[data[i]] += 1;

  for (int b = 0; b < BINS; b++)
    printf("%d ", hist[b]);
  printf("\n");
  return 0;
}
