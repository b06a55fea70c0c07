// A function no call omplens can see reaches (here `main` calls it through a function
// pointer, as a caller in another file would; its data comes mapped) makes a helper launch a
// kernel on it, then copies the result back with `target update from` and reads it, in a loop. The helper's kernel finds the data only because a caller mapped it,
// so the update copies it back: the read is not stale, and the update is needed in the loop
// (the kernel changes the data every round). Before, the update was taken for a possible no-op
// (a false OMP101) and for data the loop does not change (a false OMP207).
#include <stdio.h>
#include <stdlib.h>

static void mark(int n, unsigned char *flags, const int *in, int round) {
#pragma omp target teams distribute parallel for
  for (int g = 0; g < n - 1; g++)
    flags[g + 1] = (in[g] + round) % 5 != 0;
}

int rounds_until_clear(int n, unsigned char *flags, const int *in) {
  int zero = 1, round = 0;
  while (zero && round < 8) {
    mark(n, flags, in, round);
#pragma omp target update from(flags[0:n])
    zero = 0;
    for (int i = 1; i < n; i++)
      if (flags[i] == 0) {
        zero = 1;
        break;
      }
    round++;
  }
  return round;
}

// Called through a pointer: omplens does not see which function the call reaches.
int (*volatile entry)(int, unsigned char *, const int *) = rounds_until_clear;

int main(void) {
  int n = 64;
  unsigned char *flags = calloc(n, 1);
  int *in = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    in[i] = i % 7;
  int rounds;
#pragma omp target data map(tofrom: flags[0:n]) map(to: in[0:n])
  rounds = entry(n, flags, in);
  printf("rounds = %d\n", rounds);
  free(flags);
  free(in);
  return 0;
}
