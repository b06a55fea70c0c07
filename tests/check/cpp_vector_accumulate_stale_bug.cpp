// Like cpp_vector_fill_reset.cpp, but the host sums the vector with `std::accumulate` over its
// iterators inside the region, before any copy back: it reads the host's zeros, not the
// kernel's results. An algorithm that reads its range is a read of the container's elements.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

int main() {
  const int n = 256;
  std::vector<float> grad(n, 0.0f);
  float *g = grad.data();
  float sum = 0.0f;
#pragma omp target data map(to: g[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      g[i] += 0.5f * (i % 8);
    sum = std::accumulate(grad.begin(), grad.end(), 0.0f);
  }
  std::printf("sum = %.1f\n", sum);
  return 0;
}
