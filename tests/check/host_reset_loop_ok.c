// The device fills `mask` and nothing copies it back; the host then sets every element
// again in a loop over the allocation's length before it reads it. Were the loop to run zero
// times, `n` would be 0 and `mask` would hold no element: no read of a stale copy is
// possible on any path.
#include <stdio.h>
#include <stdlib.h>

static void mark_on_device(char *mask, int n) {
#pragma omp target teams distribute parallel for map(alloc: mask[0:n])
  for (int i = 0; i < n; ++i)
    mask[i] = (char)(i % 3 == 0);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  char *mask = malloc(sizeof(char) * n);
  mark_on_device(mask, n);
  // Reset on the host for the reference run.
  for (int i = 0; i < n; i++)
    mask[i] = 0;
  int set = 0;
  for (int i = 0; i < n; i++)
    set += mask[i];
  printf("set = %d (want 0)\n", set);
  free(mask);
  return 0;
}
