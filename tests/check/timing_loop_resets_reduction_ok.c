/* A timing loop through the program's own clock wrapper: each repetition sends the host's 0
 * to the device's `best` before the reduction kernel, so every repetition computes the same
 * maximum and the copy back at the end of the region gives it, as meant. Without the clock
 * the same shape restarts an accumulation by mistake (reduction_reset_each_repeat_bug.c). */
#include <stdio.h>
#include <time.h>

static double seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

int main(void) {
  int n = 1000, repeat = 3;
  double best = 0.0, elapsed = 0.0;
#pragma omp target data map(from: best)
  {
    for (int r = 0; r < repeat; r++) {
#pragma omp target update to(best)
      double t0 = seconds();
#pragma omp target teams distribute parallel for reduction(max: best)
      for (int i = 0; i < n; i++)
        best = best > 0.5 * (i % 97) ? best : 0.5 * (i % 97);
      elapsed += seconds() - t0;
    }
  }
  printf("best = %.1f%s\n", best, elapsed >= 0.0 ? "" : "?");
  return 0;
}
