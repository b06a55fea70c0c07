// A function template whose kernel reads its inputs only through a by-value template helper
// (`to_float(in[i])`, `T to_float(T v)`): the element is copied into the helper's parameter,
// so the kernel reads `in`. Before, an argument of dependent type was taken as passed by
// address, the helper's summary said nothing about its copy, and the `map(to:)` of every
// input was reported as a copy no kernel reads (OMP204), with a fix mapping it `alloc`
// that would have run the kernel on garbage.
#include <cstdio>
#include <cstdlib>

template <typename T>
float to_float(T v) {
  return (float)v;
}

template <typename T>
T from_float(float v) {
  return (T)v;
}

template <typename T>
void scale_add(T *out, const T *in, const T *w, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    out[i] = from_float<T>(to_float(in[i]) * to_float(w[i % 8]) + to_float(out[i]));
}

template <typename T>
double run(int n) {
  T *in = (T *)malloc(n * sizeof(T));
  T *w = (T *)malloc(8 * sizeof(T));
  T *out = (T *)malloc(n * sizeof(T));
  for (int i = 0; i < n; i++) {
    in[i] = (T)(i % 13);
    out[i] = (T)1;
  }
  for (int i = 0; i < 8; i++)
    w[i] = (T)(i + 1);
#pragma omp target data map(to: in[0:n], w[0:8]) map(tofrom: out[0:n])
  {
    scale_add<T>(out, in, w, n);
    scale_add<T>(out, in, w, n);
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += (double)out[i];
  free(in);
  free(w);
  free(out);
  return sum;
}

int main() {
  printf("%.1f %.1f\n", run<float>(1000), run<int>(1000));
  return 0;
}
