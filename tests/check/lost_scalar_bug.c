/* Lost scalar write: `count` is not named in any clause, so the target region gets a
 * firstprivate copy. The device increments its private copy and the host prints 0. */
#include <stdio.h>

#define N 4000

int main(void) {
  int v[N];
  for (int i = 0; i < N; i++)
    v[i] = (i * 37) % 101 - 50;

  int count = 0;
#pragma omp target map(to: v)
  {
    for (int i = 0; i < N; i++)
      if (v[i] > 0)
        count++;
  }

  printf("positive=%d\n", count);
  return 0;
}
