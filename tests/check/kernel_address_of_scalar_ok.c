// A kernel sets a mapped scalar through a pointer to it (`int *p = &count; *p = ...`):
// taking the address reads nothing, so `map(from: count)` is right.
#include <stdio.h>
#define N 64

int main(void) {
  int v[N];
  int count;
  for (int i = 0; i < N; ++i)
    v[i] = i % 5;
#pragma omp target map(to: v) map(from: count)
  {
    int *p = &count;
    *p = 0;
    for (int i = 0; i < N; ++i)
      if (v[i] == 0)
        *p += 1;
  }
  printf("zeros %d\n", count);
  return 0;
}
