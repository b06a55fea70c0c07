/* Working twin of past_malloc_bug.c: the section has the length of the allocation. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 3000;
  double *r = (double *)malloc(n * sizeof(double));
  double *s = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    r[i] = (double)(i % 25);

#pragma omp target teams distribute parallel for map(to: r[0:n]) map(from: s[0:n])
  for (int i = 0; i < n; i++)
    s[i] = r[i] * 0.5;

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += s[i];
  printf("sum=%.2f\n", sum);
  free(r);
  free(s);
  return 0;
}
