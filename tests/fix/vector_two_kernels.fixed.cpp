// Two std::vector<double> fields, two kernels per iteration on their raw pointers, and a
// host probe that reads one element of u after every iteration. An expert maps both buffers
// once and copies back just the probed element each iteration (target update from(u[k:1])).
#include <cstdio>
#include <vector>

int main() {
  const int n = 2048;
  const int probe = 700;
  std::vector<double> uvec(n), vvec(n);
  for (int i = 0; i < n; i++) {
    uvec[i] = (double)(i % 16);
    vvec[i] = (double)((i * 3) % 8);
  }
  double *u = uvec.data();
  double *v = vvec.data();
  double trace = 0.0;
#pragma omp target data map(tofrom: u[0:n], v[0:n])
  for (int it = 0; it < 12; it++) {
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      v[i] = 0.5 * v[i] + 0.25 * u[i];
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      u[i] = u[i] - 0.5 * v[i] + 1.0;
#pragma omp target update from(u[probe:1])
    trace += u[probe];
    std::printf("it=%d probe=%.6f\n", it, u[probe]);
  }
  double su = 0.0, sv = 0.0;
  for (int i = 0; i < n; i++) {
    su += uvec[i];
    sv += vvec[i];
  }
  std::printf("trace=%.6f sum_u=%.6f sum_v=%.6f\n", trace, su, sv);
  return 0;
}
