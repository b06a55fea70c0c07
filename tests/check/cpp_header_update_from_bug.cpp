// A kernel fills `out` inside a `target data` region; a template of a project header
// (include/compare_copy_back.h) reads it on the host, but nothing copies the device's
// results back first: the call reads the stale host copy (reported at the call, the
// header is not reported on itself).
#include "include/compare_copy_back.h"
#include <cstdio>
#include <cstdlib>

static void twice(float *out, const float *in, std::size_t n) {
#pragma omp target teams distribute parallel for
  for (std::size_t i = 0; i < n; ++i)
    out[i] = 2 * in[i];
}

int main() {
  const std::size_t n = 1000;
  float *in = (float *)std::malloc(n * sizeof(float));
  float *out = (float *)std::malloc(n * sizeof(float));
  float *want = (float *)std::malloc(n * sizeof(float));
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = i;
    want[i] = 2.0f * i;
    out[i] = -1.0f;
  }
  int bad = 0;
#pragma omp target data map(to: in[0:n]) map(alloc: out[0:n])
  {
    twice(out, in, n);
    bad += mismatches_on_host(out, want, n);
    std::printf("out[7] = %.1f\n", out[7]);
  }
  std::printf("mismatches: %d\n", bad);
  std::free(in);
  std::free(out);
  std::free(want);
  return 0;
}
