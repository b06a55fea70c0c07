/* `base` is firstprivate by the programmer's own clause: each thread shifts its private copy
 * for one element and shifts it back. The host prints `base` after the kernel and sees its
 * own value, as the sequential program does: no write is lost. */
#include <stdio.h>

#define N 64

int main(void) {
  int base = 100;
  int out[N];
#pragma omp target teams distribute parallel for firstprivate(base) map(from: out)
  for (int i = 0; i < N; i++) {
    base += i;
    out[i] = base;
    base -= i;
  }
  long total = 0;
  for (int i = 0; i < N; i++)
    total += out[i];
  printf("base=%d total=%ld\n", base, total);
  return 0;
}
