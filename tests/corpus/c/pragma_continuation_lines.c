// Exercises backslash continuation lines inside pragmas (map lists, clauses and directive names split over several lines).
#include <stdio.h>

#define N 160

int main(void) {
  double u[N], v[N], w[N];
  double total = 0.0;
  for (int i = 0; i < N; i++) {
    u[i] = (double)(i % 4);
    v[i] = (double)(i % 3);
    w[i] = 0.0;
  }

#pragma omp target data \
    map(to: u, \
            v) \
    map(tofrom: w)
  {
#pragma omp target teams distribute \
    parallel for \
    num_teams(4)
    for (int i = 0; i < N; i++)
      w[i] = u[i] + v[i];

#pragma omp target teams distribute parallel for \
    reduction(+: total) \
    map(tofrom: total)
    for (int i = 0; i < N; i++)
      total += w[i] * w[i];

#pragma omp target update \
    from(w[0:N/2])
  }

  printf("w[5]=%.1f total=%.1f\n", w[5], total);
  return 0;
}
