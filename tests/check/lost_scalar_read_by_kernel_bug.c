// A kernel computes `offset` into an implicitly firstprivate scalar: the write is lost. A
// later kernel maps `offset` and reads it: it gets the host's old value, not the first
// kernel's result.
#include <stdio.h>

int main(void) {
  int n = 32;
  int a[32];
  int offset = 0;
  for (int i = 0; i < n; i++)
    a[i] = i;

#pragma omp target map(to: a)
  {
    offset = a[n - 1] + 1; // lost: `offset` is firstprivate here
  }

#pragma omp target map(tofrom: a) map(to: offset)
  {
    int off = offset;
    for (int i = 0; i < n; i++)
      a[i] += off;
  }

  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  printf("sum %d\n", s);
  return 0;
}
