/* Working twin of enter_stack_bug.c: the local table is unmapped (`delete`: the host copy
 * is still valid) before the function returns, so each call copies its own table. */
#include <stdio.h>

#define N 256

static long lookup(int seed) {
  long table[N];
  long out[N];
  for (int i = 0; i < N; i++)
    table[i] = seed * (i % 9);

#pragma omp target enter data map(to: table)

#pragma omp target teams distribute parallel for map(from: out)
  for (int i = 0; i < N; i++)
    out[i] = table[(i * 5) % N] + 1;

#pragma omp target exit data map(delete: table)

  long s = 0;
  for (int i = 0; i < N; i++)
    s += out[i];
  return s;
}

int main(void) {
  long first = lookup(1);
  long second = lookup(7);
  printf("first=%ld second=%ld\n", first, second);
  return 0;
}
