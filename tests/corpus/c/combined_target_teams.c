// Exercises target teams, target teams distribute, target teams distribute simd, target teams distribute parallel for (+simd), target teams loop.
#include <stdio.h>

#define N 512

int main(void) {
  double x[N], y[N], z[N];
  int team_flag[1] = {0};
  for (int i = 0; i < N; i++) {
    x[i] = (double)(i % 9);
    y[i] = 1.0;
    z[i] = 0.0;
  }

#pragma omp target teams num_teams(1) map(tofrom: team_flag)
  {
    team_flag[0] = 42;
  }

#pragma omp target teams distribute map(tofrom: y) map(to: x)
  for (int i = 0; i < N; i++)
    y[i] += x[i];

#pragma omp target teams distribute simd map(to: y) map(from: z)
  for (int i = 0; i < N; i++)
    z[i] = 2.0 * y[i];

#pragma omp target teams distribute parallel for map(tofrom: x) map(to: z)
  for (int i = 0; i < N; i++)
    x[i] = x[i] + z[i];

#pragma omp target teams distribute parallel for simd map(to: x) map(tofrom: y)
  for (int i = 0; i < N; i++)
    y[i] = x[i] - y[i];

  double s = 0.0;
#pragma omp target teams loop map(to: y) reduction(+: s)
  for (int i = 0; i < N; i++)
    s += y[i];

  printf("flag=%d x[10]=%.1f y[10]=%.1f z[10]=%.1f sum(y)=%.1f\n", team_flag[0], x[10], y[10], z[10], s);
  return 0;
}
