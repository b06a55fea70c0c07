/* Unchanged copy out on exit: the lookup table is entered `to` and only read by the
 * kernels, yet the exit maps it `from`, copying back values the device never wrote.
 * map(release:) (or delete) is enough. */
#include <stdio.h>

#define N 1024
#define M 4096

int main(void) {
  double table[N];
  double out[M];
  for (int i = 0; i < N; i++)
    table[i] = (double)((i * 7) % 64) / 8.0;

#pragma omp target enter data map(to: table)

#pragma omp target teams distribute parallel for map(from: out)
  for (int j = 0; j < M; j++)
    out[j] = table[(j * 3) % N] + table[j % N];

#pragma omp target exit data map(from: table)

  double sum = 0.0;
  for (int j = 0; j < M; j++)
    sum += out[j];
  printf("sum=%.3f table[5]=%.3f\n", sum, table[5]);
  return 0;
}
