// The data region maps `in` to the device and `out` back for kernels launched by a function
// template in a header (include/scale_launch.h), reached through another header template.
// omplens cannot see the kernel, but the launcher's prototype says it reads `in` and may
// write `out` there: neither copy is unused. (omplens used to give the launcher no
// parameters, so the call did nothing: OMP204 on `in`, OMP205 on `out`, and fixes that broke
// the program.)
#include <cstdio>
#include <cstdlib>
#include "include/scale_launch.h"

template <typename T>
double run(int n) {
  T *in = (T *)malloc(n * sizeof(T));
  T *out = (T *)malloc(n * sizeof(T));
  for (int i = 0; i < n; i++)
    in[i] = (T)(i % 10);
#pragma omp target data map(to: in[0:n]) map(from: out[0:n])
  {
    scale_twice<T>(in, out, n);
  }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += (double)out[i];
  free(in);
  free(out);
  return s;
}

int main() {
  printf("%.1f %.1f\n", run<float>(1000), run<double>(500));
  return 0;
}
