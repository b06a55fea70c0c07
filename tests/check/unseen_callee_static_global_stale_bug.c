// A call to a function whose body omplens cannot see (an assembler name for another function here, as one
// in another file would be) does not make every read uncertain: a `static` global is out of
// reach of any other file, so the host's read of `vals` after the kernel doubled it on the
// device still reads the stale host copy (the program prints 3.0 instead of 6.0).
#include <stdio.h>

static double vals[4];
static int ticks;

void tick_impl(void) { ticks++; }

void tick(void) __asm__("tick_impl");

int main(void) {
  double last = 0;
  for (int i = 0; i < 4; i++)
    vals[i] = i;
#pragma omp target data map(to: vals)
  {
#pragma omp target
    for (int i = 0; i < 4; i++)
      vals[i] *= 2;
    tick();
    last = vals[3];
  }
  printf("%.1f %d\n", last, ticks);
  return 0;
}
