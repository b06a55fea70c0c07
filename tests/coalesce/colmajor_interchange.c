/* Column-major batches through a flat pointer and local index variables: for each batch b
 * the recurrence runs down the columns (t carries a dependence: row t reads row t - 1), and
 * the column index c is contiguous. The index goes through `int at = ...` and `int up = ...`;
 * interchanging t and c and collapsing b-c gives consecutive threads consecutive c. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int nb = 6, n = 48;
  double *x = (double *)malloc(sizeof(double) * nb * n * n);
  for (int q = 0; q < nb * n * n; q++)
    x[q] = (double)(q % 9) * 0.25;
#pragma omp target teams distribute parallel for map(tofrom: x[0:nb * n * n])
  for (int b = 0; b < nb; b++)
    for (int t = 1; t < n; t++)
      for (int c = 0; c < n; c++) {
        int at = (b * n + t) * n + c;
        int up = at - n;
        x[at] = x[at] + 0.5 * x[up];
      }
  double s = 0.0;
  for (int q = 0; q < nb * n * n; q++)
    s += x[q] * (double)(q % 5);
  printf("checksum %.4f\n", s);
  free(x);
  return 0;
}
