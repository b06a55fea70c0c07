// Exercises collapse(2)/collapse(3), num_teams, thread_limit, num_threads, schedule(static,4|dynamic|guided) and dist_schedule(static,8).
#include <stdio.h>

#define NX 16
#define NY 12
#define NZ 8

int main(void) {
  double v[NX][NY][NZ];
  double m[NX][NY];
  double w[NX * NY];

#pragma omp target teams distribute parallel for collapse(3) num_teams(4) thread_limit(64) map(from: v)
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      for (int k = 0; k < NZ; k++)
        v[i][j][k] = (double)(i + 2 * j + 3 * k);

#pragma omp target teams distribute parallel for collapse(2) dist_schedule(static, 8) schedule(static, 4) \
    map(to: v) map(from: m)
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      double s = 0.0;
      for (int k = 0; k < NZ; k++)
        s += v[i][j][k];
      m[i][j] = s;
    }

#pragma omp target parallel for schedule(dynamic) num_threads(4) map(to: m) map(from: w)
  for (int idx = 0; idx < NX * NY; idx++)
    w[idx] = m[idx / NY][idx % NY] * 0.5;

#pragma omp target teams distribute parallel for schedule(guided) num_teams(2) thread_limit(32) map(tofrom: w)
  for (int idx = 0; idx < NX * NY; idx++)
    w[idx] += 1.0;

#pragma omp target map(tofrom: m)
#pragma omp parallel for collapse(2) schedule(dynamic, 2) num_threads(3)
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      m[i][j] -= 1.0;

  double s = 0.0, t = 0.0;
  for (int i = 0; i < NX * NY; i++)
    s += w[i];
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      t += m[i][j];
  printf("v[3][4][5]=%.1f m[2][3]=%.1f sum(w)=%.1f sum(m)=%.1f\n", v[3][4][5], m[2][3], s, t);
  return 0;
}
