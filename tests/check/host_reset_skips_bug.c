// The device fills `mask` and nothing copies it back; the host loop over the whole
// allocation skips every other element (`continue`), so half of `mask` is still the host's
// zeroed copy when it is read: the loop does not fill the allocation.
#include <stdio.h>
#include <stdlib.h>

static void mark_on_device(char *mask, int n) {
#pragma omp target teams distribute parallel for map(alloc: mask[0:n])
  for (int i = 0; i < n; ++i)
    mask[i] = 1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  char *mask = calloc(n, sizeof(char));
  mark_on_device(mask, n);
  for (int i = 0; i < n; i++) {
    if (i % 2)
      continue;
    mask[i] = 1;
  }
  int set = 0;
  for (int i = 0; i < n; i++)
    set += mask[i];
  printf("set = %d (want %d)\n", set, n);
  free(mask);
  return 0;
}
