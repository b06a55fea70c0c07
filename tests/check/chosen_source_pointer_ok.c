// Each pass's kernel reads from `d` or from `dn`, chosen by assigning a local pointer (`src =
// d;` on the first pass, `src = dn;` after), then a second kernel writes `d`. `dn` is only
// ever read on the device, so its host copy stays valid: choosing a source is no swap of `d`
// and `dn` (a write of `d` was taken as a possible write of `dn`: a false stale read of `dn`).
#include <stdio.h>
#include <stdlib.h>

static void passes(int n, double *d, double *dn, double *out) {
#pragma omp target data map(tofrom: d[0:n]) map(to: dn[0:n]) map(alloc: out[0:n])
  {
    for (int p = 0; p < 3; p++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) {
        const double *src;
        if (p == 0)
          src = d;
        else
          src = dn;
        out[i] = src[i] + 1.0;
      }
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        d[i] = 2.0 * out[i];
    }
  }
}

int main(void) {
  int n = 256;
  double *d = malloc(n * sizeof(double));
  double *dn = malloc(n * sizeof(double));
  double *out = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    d[i] = i;
    dn[i] = 0.5 * i;
  }
  passes(n, d, dn, out);
  printf("d[7] = %.1f, dn[7] = %.1f\n", d[7], dn[7]);
  free(d);
  free(dn);
  free(out);
  return 0;
}
