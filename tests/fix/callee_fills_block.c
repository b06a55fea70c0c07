/* Each element's eight corner forces are written by a device function through the pointer
 * it is given (`corners(cell[k], &f[8 * k])` fills `f[8 * k]` to `f[8 * k + 7]`), on every
 * iteration: the kernel overwrites all of `f` before any read, so `f` needs no copy in
 * (`map(alloc:)`) though it comes from a helper that fills it on the host. `half` writes four
 * of each eight: `g` keeps its host values in between and is copied in. */
#include <stdio.h>
#include <stdlib.h>

#pragma omp declare target
static void corners(double v, double *f) {
  for (int i = 0; i < 8; i++)
    f[i] = v * i;
}
static void half(double v, double *f) {
  for (int i = 0; i < 4; i++)
    f[i] = v * i;
}
#pragma omp end declare target

static double *make(int n) {
  double *p = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    p[i] = 3.0;
  return p;
}

int main(void) {
  int n = 1000;
  double *cell = make(n);
  double *f = make(8 * n);
  double *g = make(8 * n);
  double *out = make(n);
  for (int s = 0; s < 3; s++) {
#pragma omp target teams distribute parallel for
    for (int k = 0; k < n; k++) {
      corners(cell[k], &f[8 * k]);
      half(cell[k], &g[8 * k]);
    }
#pragma omp target teams distribute parallel for
    for (int k = 0; k < n; k++) {
      double t = 0;
      for (int i = 0; i < 8; i++)
        t += f[8 * k + i] + g[8 * k + i];
      out[k] = t;
    }
  }
  double t = 0;
  for (int i = 0; i < n; i++)
    t += out[i];
  printf("%.3f\n", t);
  return 0;
}
