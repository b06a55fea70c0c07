/* A gap: the data region omplens wants for the two kernels would enclose a `goto` out of it,
 * and a structured block may not be left by a jump (nor may a `goto` skip an `exit data`), so
 * no region is written and the malloc'ed buffer stays unmapped. `fix` must write nothing
 * unless --allow-partial. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = 1000 + argc;
  double *buf = (double *)malloc(sizeof(double) * n);
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    buf[i] = i * 0.5;
  if (argc > 5)
    goto done;
  {
  double peak = 0.0;
#pragma omp target teams distribute parallel for reduction(max : peak)
  for (int i = 0; i < n; i++)
    peak = buf[i] > peak ? buf[i] : peak;
  printf("peak=%.1f\n", peak);
  }
done:
  free(buf);
  return 0;
}
