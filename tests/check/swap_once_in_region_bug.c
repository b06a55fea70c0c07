// The region maps `a` both ways and `b` only to the device; the kernel updates both, then the
// host swaps the two pointers. The region's end copies back what `a` pointed to at its start
// (old `a`), not what `a` points to now: after the swap `b` holds old `a`, which is right,
// and `a` holds old `b`, whose device results never came back.
#include <stdio.h>
#include <stdlib.h>
#define N 100

int main(void) {
  int *a = malloc(N * sizeof(int)), *b = malloc(N * sizeof(int)), *t;
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 0;
  }
#pragma omp target data map(tofrom: a[0:N]) map(to: b[0:N])
  {
#pragma omp target
    for (int i = 0; i < N; ++i) {
      b[i] = b[i] + 2 * a[i];
      a[i] = a[i] + 1;
    }
    t = a;
    a = b;
    b = t;
  }
  printf("old a: %d\n", b[N - 1]);
  printf("old b: %d\n", a[N - 1]);
  free(a);
  free(b);
  return 0;
}
