// A kernel walks a mapped array through a local pointer set from the array's name
// (`int *p = a;`): the name decays to an address, which reads no element, so mapping `a`
// `from` is right.
#include <stdio.h>
#define N 100

int main(void) {
  int a[N];
  int total = 0;
#pragma omp target data map(from: a[0:N])
  {
#pragma omp target
    {
      int *p = a;
      for (int i = 0; i < N; ++i)
        p[i] = 3 * i;
    }
  }
  for (int i = 0; i < N; ++i)
    total += a[i];
  printf("total %d\n", total);
  return 0;
}
