// A gradient buffer kept on the device in a `std::vector`: each step clears it on the host with
// `std::fill` over its iterators and sends the zeros (`target update to`), a kernel accumulates
// into it, and the sum comes back once at the end. `std::fill` only writes the elements, so the
// host reads nothing stale (before: the iterators' container counted as read and written).
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
  const int n = 256, steps = 3;
  std::vector<float> grad(n);
  float *g = grad.data();
#pragma omp target data map(alloc: g[0:n])
  {
    for (int s = 0; s < steps; s++) {
      std::fill(grad.begin(), grad.end(), 0.0f);
#pragma omp target update to(g[0:n])
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        g[i] += 0.5f * (i % 8);
    }
#pragma omp target update from(g[0:n])
  }
  float sum = 0.0f;
  for (int i = 0; i < n; i++)
    sum += grad[i];
  std::printf("sum = %.1f\n", sum);
  return 0;
}
