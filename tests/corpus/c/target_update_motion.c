// Exercises `target update to/from` (whole arrays, sections, present modifier) inside a time-step loop under `target data`.
#include <stdio.h>

#define N 256
#define STEPS 6

int main(void) {
  double u[N], forcing[N];
  double diag[STEPS];

  for (int i = 0; i < N; i++) {
    u[i] = (double)(i % 8);
    forcing[i] = 0.0;
  }

#pragma omp target data map(tofrom: u) map(to: forcing)
  {
    for (int step = 0; step < STEPS; step++) {
      /* host changes the forcing on a sub-range and pushes it */
      for (int i = 10; i < 20; i++)
        forcing[i] = (double)step;
#pragma omp target update to(forcing[10:10])

#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        u[i] = u[i] + forcing[i] * 0.5;

      /* host needs the first 32 entries for a diagnostic */
#pragma omp target update from(present: u[0:32])
      double s = 0.0;
      for (int i = 0; i < 32; i++)
        s += u[i];
      diag[step] = s;

      if (step == 3) {
        /* host resets the tail and pushes the whole array back */
#pragma omp target update from(u)
        for (int i = N / 2; i < N; i++)
          u[i] = 1.0;
#pragma omp target update to(present: u)
      }
    }
  }

  for (int s = 0; s < STEPS; s++)
    printf("step %d diag %.2f\n", s, diag[s]);
  double tot = 0.0;
  for (int i = 0; i < N; i++)
    tot += u[i];
  printf("final sum %.2f\n", tot);
  return 0;
}
