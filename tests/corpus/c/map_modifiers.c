// Exercises map-type modifiers always, close and present (alone and combined) together with target data reference counting.
#include <stdio.h>

#define N 128

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = (double)i;
    b[i] = 0.0;
  }

#pragma omp target data map(to: a) map(tofrom: b)
  {
    /* host changes a; `always` forces the copy even though a is present */
    for (int i = 0; i < N; i++)
      a[i] = (double)(2 * i);
#pragma omp target map(always, to: a) map(present, tofrom: b)
    for (int i = 0; i < N; i++)
      b[i] = a[i] + 1.0;

    /* always, from: pull b back now, not only at the end of the region */
#pragma omp target map(always, from: b) map(present, to: a)
    for (int i = 0; i < N; i++)
      b[i] = b[i] * 2.0;
    printf("inside region: b[10]=%.1f\n", b[10]);
  }

  /* close: hint to place in fast memory */
  double scratch[N];
  int n_pos = 0;
#pragma omp target map(close, alloc: scratch) map(close, tofrom: n_pos) map(to: b)
  {
    for (int i = 0; i < N; i++)
      scratch[i] = b[i] - 100.0;
    for (int i = 0; i < N; i++)
      if (scratch[i] > 0.0)
        n_pos++;
  }

  /* combined modifiers */
#pragma omp target enter data map(to: a)
#pragma omp target map(always, close, present, tofrom: a)
  for (int i = 0; i < N; i++)
    a[i] = -a[i];
#pragma omp target exit data map(from: a)

  printf("b[0]=%.1f b[N-1]=%.1f positives=%d a[5]=%.1f\n", b[0], b[N - 1], n_pos, a[5]);
  return 0;
}
