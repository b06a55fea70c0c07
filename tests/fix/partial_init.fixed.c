/* The host zero-initialises a and b out of habit, but the first kernel overwrites all of a
 * and the second overwrites all of b from a; the host prints only b. The host's values
 * never matter on the device: the tight mapping is map(alloc: a) and map(from: b). */
#include <stdio.h>

#define N 4096

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = 0.0;
    b[i] = 0.0;
  }

#pragma omp target data map(from: b) map(alloc: a)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      a[i] = (double)((i * 37) % 101) * 0.5;

#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) {
      double left = a[(i + N - 1) % N];
      double right = a[(i + 1) % N];
      b[i] = 0.25 * left + 0.5 * a[i] + 0.25 * right;
    }
  }

  double s = 0.0, mx = 0.0;
  for (int i = 0; i < N; i++) {
    s += b[i];
    if (b[i] > mx)
      mx = b[i];
  }
  printf("sum=%.6f max=%.6f b[0]=%.6f b[100]=%.6f\n", s, mx, b[0], b[100]);
  return 0;
}
