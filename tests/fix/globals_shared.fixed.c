/* Global arrays shared by two functions, each holding one kernel, called in sequence from
 * a time-step loop in main. Implicitly each launch maps its globals tofrom; a target data
 * region in main (outside both callees) keeps them on the device for the whole loop. */
#include <stdio.h>

#define N 2048
#define STEPS 10

double g_a[N], g_b[N];

void advance(void) {
#pragma omp target teams distribute parallel for map(to: g_a) map(from: g_b)
  for (int i = 0; i < N; i++)
    g_b[i] = 0.5 * g_a[i] + (double)(i % 3);
}

void relax(void) {
#pragma omp target teams distribute parallel for map(to: g_b) map(tofrom: g_a)
  for (int i = 1; i < N - 1; i++)
    g_a[i] = 0.5 * g_b[i] + 0.25 * (g_b[i - 1] + g_b[i + 1]);
}

int main(void) {
  for (int i = 0; i < N; i++) {
    g_a[i] = (double)(i % 11);
    g_b[i] = 0.0;
  }

#pragma omp target data map(tofrom: g_a, g_b)
  for (int t = 0; t < STEPS; t++) {
    advance();
    relax();
  }

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += g_a[i];
  printf("sum=%.6f g_a[1]=%.6f g_a[%d]=%.6f\n", sum, g_a[1], N / 2, g_a[N / 2]);
  return 0;
}
