/* Working twin of update_after_region_bug.c: the `target update from` runs inside the
 * region, while `p` is present, and brings the kernel's results to the host. */
#include <stdio.h>

#define N 600

int main(void) {
  double p[N];
  for (int i = 0; i < N; i++)
    p[i] = (double)(i % 20);

#pragma omp target data map(to: p)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      p[i] = 2.0 * p[i] + 1.0;
#pragma omp target update from(p)
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += p[i];
  printf("sum=%.1f\n", sum);
  return 0;
}
