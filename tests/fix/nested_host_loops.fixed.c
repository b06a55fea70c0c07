/* Each time step a kernel updates a 1-D array f (a flattened ROWS x COLS field) from its
 * previous value; the host then reads f in a nested (i, j) loop to compute weighted row
 * sums. f has to come back every step but never needs to go to the device again. */
#include <stdio.h>

#define ROWS 32
#define COLS 64
#define N (ROWS * COLS)
#define STEPS 8

int main(void) {
  double f[N];
  for (int k = 0; k < N; k++)
    f[k] = (double)(k % 9);

#pragma omp target data map(to: f)
  for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for firstprivate(t)
    for (int k = 0; k < N; k++)
      f[k] = 0.5 * f[k] + (double)((k + t) % 5);

    double total = 0.0, maxrow = 0.0;
#pragma omp target update from(f)
    for (int i = 0; i < ROWS; i++) {
      double row = 0.0;
      for (int j = 0; j < COLS; j++)
        row += f[i * COLS + j] * (double)(j % 4 + 1);
      if (row > maxrow)
        maxrow = row;
      total += row;
    }
    printf("step %d: total=%.6f maxrow=%.6f\n", t, total, maxrow);
  }
  return 0;
}
