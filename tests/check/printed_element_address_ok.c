// Printing an element's address (`%p` of `&a[k]`) reads and writes no data: the host's
// `printf` between the copy in and the kernel does not make the device copy stale, and the
// kernel's own `printf` of an address does not write the data.
#include <stdio.h>
#include <stdlib.h>
#define N 64

int main(void) {
  int *a = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++)
    a[i] = i;
  long sum = 0;
#pragma omp target enter data map(to: a[0:N])
  int *shown = &a[3];
  if (shown == NULL)
    printf("at %p\n", (void *)&a[1]);
#pragma omp target map(tofrom: sum)
  {
    for (int i = 0; i < N; i++)
      sum += a[i];
    if (sum < 0)
      printf("device copy at %p\n", (void *)&a[2]);
  }
  printf("sum %ld first %d\n", sum, a[1]);
#pragma omp target exit data map(delete: a[0:N])
  free(a);
  return 0;
}
