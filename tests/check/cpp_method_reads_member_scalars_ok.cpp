// A kernel in a method calls another method of the object (`declare target`) that reads
// the scalar members `alpha` and `beta`: the kernel's `map(to: alpha, beta)` copies are read.
#include <cstdio>
#define N 128

class Affine {
  double alpha, beta;

public:
  double out[N];
  Affine(double a, double b) : alpha(a), beta(b) {}
#pragma omp declare target
  double at(const double *x, int i) const { return alpha * x[i] + beta; }
#pragma omp end declare target
  void apply(const double *x) {
#pragma omp target teams distribute parallel for map(to: x[0:N], alpha, beta) map(from: out[0:N])
    for (int i = 0; i < N; i++)
      out[i] = at(x, i);
  }
};

int main() {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = i;
  Affine f(2.0, 0.5);
  f.apply(x);
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += f.out[i];
  std::printf("sum %.1f\n", s);
  return 0;
}
