// `target exit data map(delete: p)` names the bare pointer: it ends the mapping of the
// pointer variable, not of the array `target enter data map(to: p[0:N])` mapped, whose device
// memory stays allocated (and stays in the present table after `free(p)`). Before, the bare
// pointer was taken for the array and the leak went unseen.
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(void) {
  double *p = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    p[i] = i;
#pragma omp target enter data map(to: p[0:N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    p[i] = 3.0 * p[i];
#pragma omp target update from(p[0:N])
#pragma omp target exit data map(delete: p)
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += p[i];
  printf("%.1f\n", sum);
  free(p);
  return 0;
}
