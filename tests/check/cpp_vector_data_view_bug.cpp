// The kernels name a vector's data through a pointer taken once (`in = keys.data()`), and the
// host refills and sorts the vector itself on each round: the host's writes are writes of the
// data the pointer maps, so the results must come back each round: here they never do.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

int main() {
  const int n = 512;
  std::vector<int> keys(n), doubled(n);
  int *in = keys.data();
  int *out = doubled.data();
  long checksum = 0;
#pragma omp target data map(alloc: in[0:n], out[0:n])
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < n; i++)
      keys[i] = (i * 37 + round * 11) % 101;
    std::sort(keys.begin(), keys.end(), std::greater<int>());
#pragma omp target update to(in[0:n])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      out[i] = 2 * in[i];
    for (int i = 0; i < n; i++)
      checksum += doubled[i] * (i % 7);
  }
  printf("%ld\n", checksum);
  return 0;
}
