/* The gate refuses omplens's rewrite here, conservatively: the region omplens would put
 * around `scale()` maps `out` tofrom, and the callee's `exit data map(from: out)` then runs
 * inside it. The rewritten program computes the right result (the exit data's decrement
 * brings the count to zero and copies back), but omplens's own check of the rewrite reports
 * a stale host read of `out` it did not report before, so the rewrite is not written. */
#include <stdio.h>
#include <stdlib.h>

#define LEN 256

double *in;
double *out;

static void scale(void) {
#pragma omp target enter data map(to: in[0:LEN])
#pragma omp target
  {
#pragma omp teams distribute parallel for
    for (int i = 0; i < LEN; i++)
      out[i] = 2.0 * in[i];
  }
#pragma omp target exit data map(from: out[0:LEN]) map(release: in[0:LEN])
}

static double total(void) {
  double t = 0.0;
  for (int i = 0; i < LEN; i++)
    t += out[i];
  return t;
}

int main(void) {
  in = (double *)malloc(LEN * sizeof(double));
  out = (double *)malloc(LEN * sizeof(double));
  for (int i = 0; i < LEN; i++) {
    in[i] = i;
    out[i] = 0.0;
  }
  scale();
  printf("total=%.1f\n", total());
  free(in);
  free(out);
  return 0;
}
