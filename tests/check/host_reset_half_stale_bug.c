// The device fills `mask` and nothing copies it back; the host resets only the first half
// before it reads all of it: the second half is the host's zeroed copy, not the
// device's results (a loop over fewer elements than the allocation does not fill it).
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
  for (int i = 0; i < n / 2; i++)
    mask[i] = 1;
  int set = 0;
  for (int i = 0; i < n; i++)
    set += mask[i];
  printf("set = %d (want %d)\n", set, n);
  free(mask);
  return 0;
}
