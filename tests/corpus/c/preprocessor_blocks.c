// Exercises preprocessor structure around pragmas: #ifdef _OPENMP blocks, #if 0 containing a disabled `#pragma omp target`, #else/#elif branches and macros in clauses.
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define N 96
#define USE_BLOCKED 1
#define NTEAMS 4

static int device_count(void) {
#ifdef _OPENMP
  return omp_get_num_devices() > 0 ? 1 : 0;
#else
  return 0;
#endif
}

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = (double)(i % 12);
    b[i] = 0.0;
  }

#if 0
  /* old version kept for reference: must be ignored entirely */
#pragma omp target map(tofrom: a[0:N]) map(from: b[0:N])
  for (int i = 0; i < N; i++)
    b[i] = a[i] * 100.0;
#endif

#if USE_BLOCKED
#pragma omp target teams distribute parallel for num_teams(NTEAMS) map(to: a) map(from: b)
  for (int i = 0; i < N; i++)
    b[i] = a[i] + 1.0;
#elif defined(USE_SIMPLE)
#pragma omp target map(to: a) map(from: b)
  for (int i = 0; i < N; i++)
    b[i] = a[i] - 1.0;
#else
  for (int i = 0; i < N; i++)
    b[i] = 0.0;
#endif

#ifdef _OPENMP
  /* only compiled with OpenMP: query the runtime, keep results host-invariant */
  int ndev = device_count();
  (void)ndev;
#pragma omp target map(tofrom: b[0:N / 2])
  for (int i = 0; i < N / 2; i++)
    b[i] = b[i] * 2.0;
#else
  for (int i = 0; i < N / 2; i++)
    b[i] = b[i] * 2.0;
#endif

#ifndef NO_SECOND_KERNEL
#pragma omp target teams distribute parallel for map(tofrom: b)
  for (int i = 0; i < N; i++)
    b[i] -= 0.5;
#endif

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += b[i];
  printf("b[0]=%.1f b[N-1]=%.1f sum=%.1f\n", b[0], b[N - 1], s);
  return 0;
}
