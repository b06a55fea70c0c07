/* Out-of-bounds copy in: the buffer holds `n` readings, but the map uses the capacity
 * constant CAP, so the copy to the device reads CAP - n elements past the end of the
 * allocation. (The kernel only touches the first n, so the output is right; a memory
 * checker would report the host read.) */
#include <stdio.h>
#include <stdlib.h>

#define CAP 4096

int main(void) {
  int n = 3000;
  double *r = (double *)malloc(n * sizeof(double));
  double *s = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    r[i] = (double)(i % 25);

#pragma omp target teams distribute parallel for map(to: r[0:CAP]) map(from: s[0:n])
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
