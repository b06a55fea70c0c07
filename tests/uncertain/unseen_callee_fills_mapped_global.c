// A function whose body omplens cannot see (here an assembler name for another function, as one
// defined in another file without a compile database would be) launches a kernel that
// fills a global the caller keeps mapped; the caller copies the global back every round and
// reads it. The copy back is what makes the read right, and it must stay in the loop.
// omplens cannot tell this from a function that leaves `norm` alone (then the read would get
// device memory nothing wrote): the read draws a warning that names the call, with no fix.
// Before, the call was taken to touch nothing: a certain OMP101 error and a false OMP207
// (move the update before the loop).
#include <stdio.h>

double norm[4];
static int calls;

void compute_norm_impl(void) {
  calls++;
  double c = calls;
#pragma omp target firstprivate(c)
  for (int i = 0; i < 4; i++)
    norm[i] = c * i;
}

void compute_norm(void) __asm__("compute_norm_impl");

int main(void) {
  double sum = 0;
#pragma omp target data map(alloc: norm)
  for (int it = 0; it < 4; it++) {
    compute_norm();
#pragma omp target update from(norm)
    sum += norm[3];
  }
  printf("%.1f\n", sum);
  return 0;
}
