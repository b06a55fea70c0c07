/* A kernel writes results into the first half of a buffer and uses the second half as
 * scratch space. The exit copies back only the results, and the host reads only those: the
 * lost scratch half is never read. */
#include <stdio.h>
#include <stdlib.h>

#define HALF 128

static long *work;

static void compute(void) {
#pragma omp target enter data map(alloc: work[0:2 * HALF])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < HALF; i++) {
    work[HALF + i] = 3L * i;
    work[i] = work[HALF + i] + 1;
  }
#pragma omp target exit data map(from: work[0:HALF])
}

static long total(void) {
  long t = 0;
  for (int i = 0; i < HALF; i++)
    t += work[i];
  return t;
}

int main(void) {
  work = (long *)calloc(2 * HALF, sizeof(long));
  compute();
  printf("total=%ld\n", total());
  free(work);
  return 0;
}
