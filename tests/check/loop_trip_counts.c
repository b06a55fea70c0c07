// Loops whose counters double, halve or step by more than one: the repeated copies are
// counted per real iteration (10, 11 and 15), not as if the counter stepped by one.
#include <stdio.h>
#include <stdlib.h>
#define N 1024

int main(void) {
  float *a = malloc(N * sizeof(float));
  for (int i = 0; i < N; i++)
    a[i] = i;
  for (int s = 2; s <= 1024; s *= 2) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:N])
    for (int i = 0; i < N; i++)
      a[i] = a[i] + s;
  }
  for (int k = N; k > 0; k >>= 1) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:N])
    for (int i = 0; i < N; i++)
      a[i] = a[i] * 0.5f;
  }
  for (int k = 0; k < 100; k += 7) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:N])
    for (int i = 0; i < N; i++)
      a[i] = a[i] + 1;
  }
  printf("%f\n", a[3]);
  free(a);
  return 0;
}
