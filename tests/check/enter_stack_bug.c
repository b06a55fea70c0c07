/* Entered data never exited: `table` is a local array of `lookup`, entered with `to` and
 * never exited. When the function returns, the device still holds a mapping for its stack
 * address; the next call's local at the same address is found present, so `enter data`
 * copies nothing and the kernel reads the previous call's table. */
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
