// `std::iota` and `std::rotate` rewrite a permutation on the host each round, through the
// pointer the kernels use; the `target update to` in the loop sends each new one (no finding:
// the data does change inside the loop).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>

int main() {
  const int n = 1000;
  int *perm = (int *)malloc(n * sizeof(int));
  long total = 0;
#pragma omp target data map(alloc: perm[0:n])
  for (int r = 0; r < 4; r++) {
    std::iota(perm, perm + n, r);
    std::rotate(perm, perm + 3 * r, perm + n);
#pragma omp target update to(perm[0:n])
#pragma omp target teams distribute parallel for reduction(+: total)
    for (int i = 0; i < n; i++)
      total += (long)perm[i] * (i % 5);
  }
  printf("%ld\n", total);
  free(perm);
  return 0;
}
