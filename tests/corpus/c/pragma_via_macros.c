// Exercises OpenMP directives produced by macros via _Pragma("omp target ..."), including a macro that stringizes its clause argument.
#include <stdio.h>

#define N 144

#define PRAGMA(x) _Pragma(#x)
#define OFFLOAD_LOOP _Pragma("omp target teams distribute parallel for")
#define OFFLOAD_MAP(clauses) PRAGMA(omp target teams distribute parallel for clauses)
#define DATA_BEGIN(clauses) PRAGMA(omp target data clauses)

/* a loop macro that carries its own pragma */
#define SCALE_KERNEL(arr, n, f)                                                \
  do {                                                                         \
    PRAGMA(omp target teams distribute parallel for map(tofrom: arr[0:n]))      \
    for (int i_ = 0; i_ < (n); i_++)                                           \
      (arr)[i_] *= (f);                                                        \
  } while (0)

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = (double)(i % 9);
    b[i] = 1.0;
  }

  OFFLOAD_MAP(map(to: a) map(tofrom: b))
  for (int i = 0; i < N; i++)
    b[i] += a[i];

  double *pa = a;
  SCALE_KERNEL(pa, N, 2.0);

  DATA_BEGIN(map(to: a) map(tofrom: b))
  {
    OFFLOAD_LOOP
    for (int i = 0; i < N; i++)
      b[i] = b[i] * a[i];
    _Pragma("omp target update from(b)")
  }

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += b[i];
  printf("a[5]=%.1f b[5]=%.1f sum=%.1f\n", a[5], b[5], s);
  return 0;
}
