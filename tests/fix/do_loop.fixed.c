/* A `do { kernel; host work; } while (...)` loop: after each kernel the host reads one
 * element a[N-1] to test convergence and, every 4th iteration, injects a pulse into a[0].
 * Only those elements need to move inside the loop (one-element update from / to). */
#include <math.h>
#include <stdio.h>

#define N 2048
#define MAX_ITER 20

int main(void) {
  double a[N];
  for (int i = 0; i < N; i++)
    a[i] = 0.0;

  int iter = 0;
  double err = 0.0;
#pragma omp target data map(tofrom: a)
  do {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      a[i] = 0.5 * a[i] + (double)(i % 8);
    iter++;

    if (iter % 4 == 0) {
      a[0] = (double)(10 * iter);
#pragma omp target update to(a[0:1])
    }
#pragma omp target update from(a[2047:1])
    err = fabs(a[N - 1] - 14.0);
    printf("iter %d a[N-1]=%.6f err=%.6f\n", iter, a[N - 1], err);
  } while (err > 0.01 && iter < MAX_ITER);

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += a[i];
  printf("iterations=%d sum=%.6f a[0]=%.6f a[9]=%.6f\n", iter, sum, a[0], a[9]);
  return 0;
}
