// A method that maps its object's weights on every call, called in a loop that changes the
// weights on the host before each call: each call needs its own copy, nothing to hoist.
#include <cstdio>
#include <vector>

struct Stepper {
  std::vector<double> weights;
  explicit Stepper(int n) : weights(n, 0.5) {}
  void retune(int t) {
    for (size_t i = 0; i < weights.size(); i++)
      weights[i] = 0.5 + 0.01 * (double)((i + t) % 7);
  }
  void apply(double *u, int n) const {
    const double *w = weights.data();
#pragma omp target teams distribute parallel for map(to: w[0:n]) map(tofrom: u[0:n])
    for (int i = 0; i < n; i++)
      u[i] = w[i] * u[i] + 1.0;
  }
};

int main() {
  const int n = 3000;
  Stepper s(n);
  std::vector<double> state(n, 2.0);
  double *u = state.data();
  double trace = 0.0;
  for (int t = 0; t < 12; t++) {
    s.retune(t);
    s.apply(u, n);
    trace += u[t];
  }
  std::printf("trace=%.6f\n", trace);
  return 0;
}
