// A one-element local array with no initialiser counts hits on the device: each repetition
// zeroes it on the host and sends it, the kernel counts, and after the repetitions the host
// reads the count. Its contents when the data region begins are indeterminate, so the region
// maps it `alloc`: copying it in would move nothing anyone reads.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 4096, reps = 3;
  float *v = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    v[i] = (float)((i * 7) % 13);
  int hits[1];
#pragma omp target data map(to: v[0:n]) map(alloc: hits[0:1])
  for (int limit = 4; limit <= 12; limit += 4) {
    for (int r = 0; r < reps; r++) {
      hits[0] = 0;
#pragma omp target update to(hits[0:1])
#pragma omp target teams distribute parallel for firstprivate(limit)
      for (int i = 0; i < n; i++) {
        if (v[i] < (float)limit) {
#pragma omp atomic update
          hits[0] += 1;
        }
      }
    }
#pragma omp target update from(hits[0:1])
    printf("limit=%d hits=%d\n", limit, hits[0]);
  }
  free(v);
  return 0;
}
