/* Inside a time loop one kernel updates x and a `reduction(+:sum)` kernel sums it; the host
 * prints sum every step. sum is a scalar written by the kernel and read by the host (tofrom,
 * implicitly so on the combined construct); x itself never needs to come back. */
#include <stdio.h>

#define N 4096
#define STEPS 10

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = (double)(i % 10);

  double total = 0.0;
#pragma omp target data map(to: x)
  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for firstprivate(t)
    for (int i = 0; i < N; i++)
      x[i] = x[i] + (double)((i + t) % 5) - 2.0;

    double sum = 0.0;
#pragma omp target teams distribute parallel for reduction(+ : sum)
    for (int i = 0; i < N; i++)
      sum += x[i] * (double)(i % 3);

    printf("step %d sum=%.6f\n", t, sum);
    total += sum;
  }
  printf("total over %d steps=%.6f\n", STEPS, total);
  return 0;
}
