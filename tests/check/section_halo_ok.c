/* Working twin of section_halo_bug.c: the input section includes the halo, u[0:n+2]; the
 * output section is exactly the n elements written. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *u = (double *)malloc((n + 2) * sizeof(double));
  double *v = (double *)malloc((n + 2) * sizeof(double));
  for (int i = 0; i < n + 2; i++)
    u[i] = (double)((i * 5) % 17);

#pragma omp target teams distribute parallel for map(to: u[0:n + 2]) map(from: v[1:n])
  for (int i = 1; i <= n; i++)
    v[i] = u[i - 1] + 2.0 * u[i] + u[i + 1];

  double sum = 0.0;
  for (int i = 1; i <= n; i++)
    sum += v[i];
  printf("sum=%.1f v[1]=%.1f v[n]=%.1f\n", sum, v[1], v[n]);
  free(u);
  free(v);
  return 0;
}
