/* Working twin of nested_from_bug.c: the enclosing region owns `b` and maps it `tofrom`,
 * so the copy back happens when the region ends; inside it the kernel finds b present. */
#include <stdio.h>

#define N 1024

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = (double)(i % 13);
    b[i] = (double)(i % 5);
  }

#pragma omp target data map(to: a) map(tofrom: b)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      b[i] = b[i] + 3.0 * a[i];
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += b[i];
  printf("sum=%.1f\n", sum);
  return 0;
}
