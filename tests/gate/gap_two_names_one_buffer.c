// One buffer read by kernels under two names of different types, and rewritten on the host
// between them. A region mapping `trees` and `rows` separately would leave the second copy
// stale after the host rewrite (the program printed 65280, not 97920): `fix` names the
// two names and writes nothing.
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
  for (int n = 0; n < 2; n++) {
#pragma omp target teams distribute parallel for
    for (int g = 0; g < tn; g++) {
      int r = 0;
      for (int i = 0; i < TS; i++)
        r += trees[g].apples[i];
      output[g] = r;
    }
  }
  long s = 0;
  for (int g = 0; g < tn; g++)
    s += output[g];
  for (int i = 0; i < elements; i++)
    data[i] = 2 * i;
  for (int n = 0; n < 2; n++) {
#pragma omp target teams distribute parallel for
    for (int g = 0; g < tn; g++) {
      int r = 0;
      for (int i = 0; i < TS; i++)
        r += rows[i].trees[g];
      output[g] = r;
    }
  }
  for (int g = 0; g < tn; g++)
    s += output[g];
  printf("%ld\n", s);
  free(data);
  free(output);
  return 0;
}
