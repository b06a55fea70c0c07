// A validation helper template prints the device's values it compares (`(T)dev[i]`, a value
// whose type depends on the template's arguments, passed to `printf`). Printing reads: the
// host does not change `out` there, so nothing needs to go back to the device after it.
#include <cmath>
#include <cstdio>
#include <cstdlib>

template <class D, class T>
void validate(D *dev, const T *ref, const char *name, std::size_t n, T tol = 1e-4) {
  int bad = 0;
  for (std::size_t i = 0; i < n; i++) {
    if (std::fabs(ref[i] - (T)dev[i]) > tol) {
      if (bad < 3)
        std::printf("%s mismatch at %zu: %f vs %f\n", name, i, ref[i], (T)dev[i]);
      bad++;
    }
  }
  std::printf("%s: %d mismatches\n", name, bad);
}

static void twice(float *out, const float *in, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) {
    float *o = out + i;
    o[0] = in[i] * 2;
  }
}

int main() {
  const int n = 1000;
  float *in = (float *)malloc(n * sizeof(float));
  float *out = (float *)malloc(n * sizeof(float));
  float *ref = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) {
    in[i] = i;
    ref[i] = 2 * i;
  }
#pragma omp target data map(to: in[0:n]) map(alloc: out[0:n])
  for (int r = 0; r < 3; r++) {
    twice(out, in, n);
#pragma omp target update from(out[0:n])
    validate(out, ref, "out", n, 1e-5f);
    in[r] += 1;
#pragma omp target update to(in[r:1])
  }
  free(in);
  free(out);
  free(ref);
  return 0;
}
