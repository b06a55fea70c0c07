// No data mapping at all: a 1-D diffusion kernel inside a time-step loop, typical code before mappings are added.
#include <stdio.h>

#define N 256
#define STEPS 20

double u[N], unew[N];

int main(void) {
  for (int i = 0; i < N; i++)
    u[i] = (i > N / 4 && i < N / 2) ? 8.0 : 0.0;

  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; i++)
      unew[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; i++)
      u[i] = unew[i];
  }

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += u[i];
  printf("u[N/4]=%.6f u[N/2]=%.6f sum=%.6f\n", u[N / 4], u[N / 2], s);
  return 0;
}
