/* A function that only a caller elsewhere calls (here through a function pointer, as a
 * library's user would): its kernel compacts matches into `out` at positions an atomic
 * counter hands out, then `target update from(out[0:n])` brings back what the host reads.
 * The data is mapped by the caller, which omplens does not see at the callee: from the
 * kernel on it is taken as present, so the update is not a no-op and the read is fresh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned compact(const int *table, int cap, int *out) {
  unsigned count = 0;
#pragma omp target teams distribute parallel for map(tofrom: count)
  for (int t = 0; t < cap; t++) {
    if (table[t] % 3 == 0) {
      unsigned slot;
#pragma omp atomic capture
      { slot = count; count++; }
      out[slot] = table[t];
    }
  }
  unsigned n = count;
  int *host = (int *)malloc(n * sizeof(int));
#pragma omp target update from(out[0:n])
  memcpy(host, out, n * sizeof(int));
  long s = 0;
  for (unsigned i = 0; i < n; i++)
    s += host[i];
  free(host);
  return (unsigned)s;
}

int main(void) {
  unsigned (*run)(const int *, int, int *) = compact;
  int cap = 1000;
  int *table = (int *)malloc(cap * sizeof(int));
  int *out = (int *)malloc(cap * sizeof(int));
  for (int i = 0; i < cap; i++)
    table[i] = i;
#pragma omp target data map(to: table[0:cap]) map(alloc: out[0:cap])
  { printf("%u\n", run(table, cap, out)); }
  free(table);
  free(out);
  return 0;
}
