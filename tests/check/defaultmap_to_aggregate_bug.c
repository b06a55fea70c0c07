// `defaultmap(to: aggregate)` maps the array `to` only: the kernel's results never come
// back, and the host prints its old values.
#include <stdio.h>

int main(void) {
  double a[64];
  for (int i = 0; i < 64; i++)
    a[i] = i;

#pragma omp target defaultmap(to: aggregate)
  for (int i = 0; i < 64; i++)
    a[i] *= 2.0;

  double s = 0.0;
  for (int i = 0; i < 64; i++)
    s += a[i];
  printf("sum %.1f\n", s);
  return 0;
}
