// A kernel maps a part of what the enclosing region already mapped (`A[3:7]` inside
// `A[0:10]`, also through `p = &A[0]`): nothing new is allocated, and the kernel reaches
// every element of the region's section, `A[2]` included.
#include <stdio.h>

int main(void) {
  int A[30], *p;
  for (int i = 0; i < 30; i++)
    A[i] = i;
#pragma omp target data map(tofrom: A[0:10])
  {
    p = &A[0];
#pragma omp target map(tofrom: A[3:7])
    {
      A[2] = 20;
      A[8] = 80;
    }
#pragma omp target map(tofrom: p[3:7])
    {
      A[1] = 10;
      p[9] = 90;
    }
  }
  printf("%d %d %d %d\n", A[1], A[2], A[8], A[9]);
  return 0;
}
