/* Implicit mappings of a device temporary: `mid` is only used between the two kernels, but
 * the implicit tofrom maps copy it out after the first and back in for the second (and in
 * before the first); `in` is copied back unchanged. Explicit mappings move only `in` to
 * the device and `res` back. */
#include <stdio.h>

#define N 4096

int main(void) {
  double in[N], mid[N], res[N];
  for (int i = 0; i < N; i++)
    in[i] = (double)(i % 27);

#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    mid[i] = in[i] * 2.0;

#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    res[i] = mid[i] + mid[(i + 1) % N];

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += res[i];
  printf("sum=%.1f\n", sum);
  return 0;
}
