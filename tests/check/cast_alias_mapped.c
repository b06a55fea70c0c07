/* The map clause names a copy of the allocation's pointer (`double *a = (double *)buf;`) while
 * the call passes the original: the same data under two names, mapped and used, no finding. */
#include <stdio.h>
#include <stdlib.h>

#define N 1024

static void scale(double *x, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    x[i] = 2 * x[i] + 1;
}

int main(void) {
  void *raw = malloc(sizeof(double) * N);
  double *buf = (double *)raw;
  for (int i = 0; i < N; i++)
    buf[i] = i;
  double *a = (double *)buf;
#pragma omp target data map(tofrom: a[0:N])
  {
    scale(buf, N);
    scale(buf, N);
  }
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += buf[i];
  printf("%.1f\n", sum);
  free(raw);
  return 0;
}
