// `d_val` points at the scalar `val`: in each step a kernel sets it through `d_val`, a
// second kernel (in `add_multiples`) accumulates into it, the update brings it back, and the
// host compares `val` in the same step. The host uses the data inside the loop under its
// other name: the update cannot move after the loop (moved, the first step would compare a
// stale `val` and stop).
#include <stdio.h>

static void add_multiples(const int *in, int n, int k, int *count) {
#pragma omp target teams distribute parallel for map(to: in[0:n])
  for (int i = 0; i < n; ++i)
    if (in[i] % k == 0) {
#pragma omp atomic update
      *count += 1;
    }
}

int main(void) {
  int in[64];
  for (int i = 0; i < 64; ++i)
    in[i] = i;
  int val = 0;
  int *d_val = &val;
  int ok = 1;
#pragma omp target data map(alloc: d_val[0:1])
  {
    for (int k = 1; k <= 4; ++k) {
      for (int r = 0; r < 2; ++r) {
#pragma omp target
        d_val[0] = 0;
        add_multiples(in, 64, k, d_val);
      }
#pragma omp target update from(d_val[0:1])
      int want = (63 / k) + 1;
      if (val != want) {
        ok = 0;
        printf("mismatch for %d: %d, want %d\n", k, val, want);
        break;
      }
    }
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
