/* A reduction repeated three times inside a region that maps its result: the kernel's own
 * `tofrom` of `sum` (a reduction on a target construct maps it so) copies nothing back while
 * the region still maps it, so the host's `sum` stays 0, and the `target update to` at the top
 * of each repetition puts that 0 over the device's total. The result is one repetition's
 * total, not three: right for a timing loop that reruns the kernel on the same input, wrong
 * for an accumulation. The finding says which `update` dropped the device's results (before,
 * it said the host had changed `sum`, which it never does). */
#include <stdio.h>

int main(void) {
  int n = 1000, repeat = 3;
  double sum = 0.0;
#pragma omp target data map(from: sum)
  {
    for (int r = 0; r < repeat; r++) {
#pragma omp target update to(sum)
#pragma omp target teams distribute parallel for reduction(+: sum)
      for (int i = 0; i < n; i++)
        sum += 0.5 * i;
    }
  }
  printf("sum = %.1f\n", sum);
  return 0;
}
