// Exercises kernels in namespaces, overloaded functions (float/double/int) with offload, static class member arrays and a declare target variable in a namespace.
#include <cstdio>

namespace physics {

const int kN = 96;
double weights[kN];
#pragma omp declare target(weights)

void init_weights() {
  for (int i = 0; i < kN; i++)
    weights[i] = 1.0 / double(1 + (i % 4));
#pragma omp target update to(weights)
}

namespace ops {
void scale(double *a, int n, double f) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= f * weights[i % kN];
}
void scale(float *a, int n, float f) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= f;
}
void scale(int *a, int n, int f) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= f;
}
} // namespace ops
} // namespace physics

struct Table {
  static double coeffs[16];
  static void fill() {
#pragma omp target teams distribute parallel for map(from: coeffs)
    for (int i = 0; i < 16; i++)
      coeffs[i] = double(i) * 0.25;
  }
};
double Table::coeffs[16];

int main() {
  using namespace physics;
  init_weights();
  double d[kN];
  float f[kN];
  int k[kN];
  for (int i = 0; i < kN; i++) {
    d[i] = 4.0;
    f[i] = 2.0f;
    k[i] = i;
  }
  ops::scale(d, kN, 3.0);
  ops::scale(f, kN, 1.5f);
  physics::ops::scale(k, kN, 2);
  Table::fill();
  double sd = 0.0, sf = 0.0;
  long sk = 0;
  for (int i = 0; i < kN; i++) {
    sd += d[i];
    sf += f[i];
    sk += k[i];
  }
  std::printf("sum d=%.4f f=%.2f k=%ld coeffs[15]=%.2f\n", sd, sf, sk, Table::coeffs[15]);
  return 0;
}
