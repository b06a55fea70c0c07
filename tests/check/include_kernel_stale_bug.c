// A whole kernel (its directive too) comes from a project header included inside the
// function (include/count_kernel.h). The host changes the pivots between two launches and
// copies nothing to the device: the second launch counts with the old pivots.
#include <stdio.h>
#include <stdlib.h>
#define NPIV 4

int main(void) {
  int n = 512;
  double *in = malloc(n * sizeof(double));
  int *count = malloc(n * sizeof(int));
  double piv[NPIV] = {64.0, 128.0, 256.0, 384.0};
  for (int i = 0; i < n; i++)
    in[i] = i;
  long total = 0;
#pragma omp target data map(to: in[0:n], piv[0:NPIV]) map(from: count[0:n])
  {
    for (int round = 0; round < 2; round++) {
#include "include/count_kernel.h"
#pragma omp target update from(count[0:n])
      for (int i = 0; i < n; i++)
        total += count[i];
      for (int k = 0; k < NPIV; k++)
        piv[k] = piv[k] / 2.0;
    }
  }
  printf("total = %ld\n", total);
  free(in);
  free(count);
  return 0;
}
