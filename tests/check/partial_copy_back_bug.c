/* Prefix sums of a series on the device. The buffer is entered whole, but the exit copies
 * back only its first half: the host then prints every element, and the second half still
 * holds the zeros it had before the kernel ran. */
#include <stdio.h>
#include <stdlib.h>

#define LEN 256

static long *sums;

static void accumulate(void) {
#pragma omp target enter data map(alloc: sums[0:LEN])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < LEN; i++) {
    long s = 0;
    for (int k = 0; k <= i; k++)
      s += k;
    sums[i] = s;
  }
#pragma omp target exit data map(from: sums[0:LEN / 2])
}

static long total(void) {
  long t = 0;
  for (int i = 0; i < LEN; i++)
    t += sums[i];
  return t;
}

int main(void) {
  sums = (long *)calloc(LEN, sizeof(long));
  accumulate();
  printf("total=%ld\n", total());
  free(sums);
  return 0;
}
