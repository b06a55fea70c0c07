/* A large read-only coefficient array and scalar parameters (alpha, beta, n) read by a
 * kernel inside a loop; only the output array is written and only it is read by the host.
 * Implicit rules copy coef back after every launch; an expert maps it to once. */
#include <stdio.h>

#define NMAX 4096

int main(void) {
  double coef[NMAX], out[NMAX];
  int n = NMAX;
  double alpha = 0.75, beta = 0.5;
  for (int i = 0; i < n; i++) {
    coef[i] = (double)((i * 5) % 17) - 8.0;
    out[i] = 0.0;
  }

#pragma omp target data map(to: coef) map(tofrom: out)
  for (int it = 0; it < 12; it++) {
#pragma omp target teams distribute parallel for firstprivate(alpha, beta, it, n)
    for (int i = 0; i < n; i++)
      out[i] = beta * out[i] + alpha * coef[i] + (double)(it % 3);
  }

  double s = 0.0, mx = out[0];
  for (int i = 0; i < n; i++) {
    s += out[i];
    if (out[i] > mx)
      mx = out[i];
  }
  printf("sum=%.6f max=%.6f out[3]=%.6f\n", s, mx, out[3]);
  return 0;
}
