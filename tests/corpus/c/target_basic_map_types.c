// Exercises a plain `target` with map(to/from/tofrom/alloc) on arrays and a scalar written on the device and read by the host.
#include <stdio.h>

#define N 256

int main(void) {
  double in[N], out[N], acc[N], tmp[N];
  int count = 0;

  for (int i = 0; i < N; i++) {
    in[i] = (double)i;
    acc[i] = 1.0;
    out[i] = -1.0;
  }

  /* to: input only, from: output only, tofrom: updated, alloc: scratch */
#pragma omp target map(to: in) map(from: out) map(tofrom: acc, count) map(alloc: tmp)
  {
    for (int i = 0; i < N; i++)
      tmp[i] = in[i] * 2.0;
    for (int i = 0; i < N; i++) {
      out[i] = tmp[i] + 1.0;
      acc[i] += in[i];
      if (((int)in[i]) % 3 == 0)
        count++;
    }
  }

  double s_out = 0.0, s_acc = 0.0;
  for (int i = 0; i < N; i++) {
    s_out += out[i];
    s_acc += acc[i];
  }
  printf("sum(out) = %.1f\n", s_out);
  printf("sum(acc) = %.1f\n", s_acc);
  printf("multiples of 3 = %d\n", count);

  /* scalar result mapped back with tofrom */
  double maxv = 0.0;
#pragma omp target map(to: out[0:N]) map(tofrom: maxv)
  for (int i = 0; i < N; i++)
    if (out[i] > maxv)
      maxv = out[i];
  printf("max(out) = %.1f\n", maxv);
  return 0;
}
