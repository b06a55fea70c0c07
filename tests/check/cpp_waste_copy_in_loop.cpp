// Copy in a loop, through a call: `Stepper::apply` maps the constant stencil weights `to` on
// each call, and main calls it once per time step while the state stays mapped around the
// loop. The weights are copied STEPS times instead of once.
#include <cstdio>
#include <vector>

struct Stepper {
  std::vector<double> weights;
  explicit Stepper(int n) : weights(n) {
    for (int i = 0; i < n; i++)
      weights[i] = (i % 2 == 0) ? 0.5 : 0.25;
  }
  void apply(double *u, int n) const {
    const double *w = weights.data();
#pragma omp target teams distribute parallel for map(to: w[0:n])
    for (int i = 0; i < n; i++)
      u[i] = w[i] * u[i] + 1.0;
  }
};

int main() {
  const int n = 3000;
  const int steps = 12;
  Stepper s(n);
  std::vector<double> state(n, 2.0);
  double *u = state.data();
#pragma omp target data map(tofrom: u[0:n])
  for (int t = 0; t < steps; t++)
    s.apply(u, n);

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += u[i];
  std::printf("sum=%.6f\n", sum);
  return 0;
}
