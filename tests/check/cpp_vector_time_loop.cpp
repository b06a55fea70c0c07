// std::vector buffers in a time loop: one `target data` region maps the state `tofrom` and
// the scratch buffer `alloc` (it is written on the device before it is read); the kernels
// inside the loop find both present.
#include <cstdio>
#include <vector>

int main() {
  const int n = 4096;
  const int steps = 10;
  std::vector<double> state(n), scratch(n);
  for (int i = 0; i < n; i++)
    state[i] = (i % 128 < 64) ? 4.0 : 0.0;
  double *u = state.data();
  double *w = scratch.data();

#pragma omp target data map(tofrom: u[0:n]) map(alloc: w[0:n])
  for (int t = 0; t < steps; t++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      w[i] = 0.5 * u[i] + 0.25 * (u[(i + n - 1) % n] + u[(i + 1) % n]);
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      u[i] = w[i];
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += u[i] * (double)(i % 7);
  std::printf("weighted=%.6f\n", sum);
  return 0;
}
