/* A convergence flag: the host clears it, a kernel sets it only where work remains, and the
 * host loop repeats while it is set. The flag's copy to the device matters: on the paths
 * where no iteration sets it, the copied-in `0` is what comes back. */
#include <stdio.h>

#define N 64

int main(void) {
  int todo[N];
  for (int i = 0; i < N; i++)
    todo[i] = i % 5;
  int rounds = 0;
  int again;
#pragma omp target data map(tofrom: todo[0:N])
  do {
    again = 0;
#pragma omp target teams distribute parallel for map(tofrom: again)
    for (int i = 0; i < N; i++) {
      if (todo[i] > 0) {
        todo[i] -= 1;
        again = 1;
      }
    }
    rounds++;
  } while (again);
  printf("rounds=%d\n", rounds);
  return 0;
}
