// Exercises host recursion: a recursive divide-and-conquer driver that launches kernels on the leaves, plus a recursive host-only helper.
#include <stdio.h>

#define N 512
#define LEAF 64

static double data[N];

/* pure host recursion, no offload */
static long fib(int k) {
  return k < 2 ? k : fib(k - 1) + fib(k - 2);
}

/* recursion on the host; each leaf range is processed by a kernel */
static double process_range(int lo, int hi, int depth) {
  if (hi - lo <= LEAF) {
    double s = 0.0;
#pragma omp target teams distribute parallel for map(tofrom: data[lo:hi-lo]) reduction(+: s)
    for (int i = lo; i < hi; i++) {
      data[i] = data[i] * 2.0 + (double)depth;
      s += data[i];
    }
    return s;
  }
  int mid = lo + (hi - lo) / 2;
  return process_range(lo, mid, depth + 1) + process_range(mid, hi, depth + 1);
}

int main(void) {
  for (int i = 0; i < N; i++)
    data[i] = (double)(i % 8);
  double total = process_range(0, N, 0);
  printf("total=%.1f data[0]=%.1f data[N-1]=%.1f fib(20)=%ld\n", total, data[0], data[N - 1], fib(20));
  return 0;
}
