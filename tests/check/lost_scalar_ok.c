/* Working twin of lost_scalar_bug.c: `count` is mapped `tofrom`, so the value the device
 * computed comes back. */
#include <stdio.h>

#define N 4000

int main(void) {
  int v[N];
  for (int i = 0; i < N; i++)
    v[i] = (i * 37) % 101 - 50;

  int count = 0;
#pragma omp target map(to: v) map(tofrom: count)
  {
    for (int i = 0; i < N; i++)
      if (v[i] > 0)
        count++;
  }

  printf("positive=%d\n", count);
  return 0;
}
