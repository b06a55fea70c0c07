/* One buffer mapped under two names of different types (`trees`, `rows`, both casts of
 * `data`), and rewritten on the host between the kernels through `data`: the copy made
 * under `rows` at the region's entry is stale when the second kernel reads it (this program
 * prints 65280 offloaded, 97920 on the host). omplens fix wrote it so once. */
#include <stdio.h>
#include <stdlib.h>
#define TS 4
typedef struct {
  int apples[TS];
} Tree;
typedef struct {
  int trees[64];
} Row;
int main(void) {
  const int tn = 64;
  const int elements = TS * tn;
  int *data = (int *)malloc(elements * sizeof(int));
  int *output = (int *)malloc(tn * sizeof(int));
  for (int i = 0; i < elements; i++)
    data[i] = i;
  Tree *trees = (Tree *)data;
  Row *rows = (Row *)data;
  long s = 0;
#pragma omp target data map(to: trees[0:tn], rows[0:TS]) map(alloc: output[0:tn])
  {
#pragma omp target teams distribute parallel for
    for (int g = 0; g < tn; g++) {
      int r = 0;
      for (int i = 0; i < TS; i++)
        r += trees[g].apples[i];
      output[g] = r;
    }
#pragma omp target update from(output[0:tn])
    for (int g = 0; g < tn; g++)
      s += output[g];
    for (int i = 0; i < elements; i++)
      data[i] = 2 * i;
#pragma omp target teams distribute parallel for
    for (int g = 0; g < tn; g++) {
      int r = 0;
      for (int i = 0; i < TS; i++)
        r += rows[i].trees[g];
      output[g] = r;
    }
#pragma omp target update from(output[0:tn])
  }
  for (int g = 0; g < tn; g++)
    s += output[g];
  printf("%ld\n", s);
  free(data);
  free(output);
  return 0;
}
