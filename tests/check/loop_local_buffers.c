// Each round allocates buffers of a size that depends on the round and maps them in a
// region inside the loop. A region around the loop cannot replace it (the buffers and their
// lengths do not exist there), so no OMP206/OMP201 is offered.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  long total = 0;
  for (int width = 2; width <= 64; width *= 2) {
    int len = 100 * width;
    int *buf = malloc(len * sizeof(int));
    int *sum = malloc(sizeof(int));
    sum[0] = 0;
#pragma omp target data map(alloc: buf[0:len]) map(tofrom: sum[0:1])
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < len; i++)
        buf[i] = i % width;
#pragma omp target teams distribute parallel for reduction(+: sum[0])
      for (int i = 0; i < len; i++)
        sum[0] += buf[i];
    }
    total += sum[0];
    free(buf);
    free(sum);
  }
  printf("%ld\n", total);
  return 0;
}
