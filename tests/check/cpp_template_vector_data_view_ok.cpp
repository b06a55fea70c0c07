// A function template that fills a `std::vector<T>` on the host each run and hands the
// kernel its storage through `T *d = v.data()`. In the template `v.data()` is a member call
// resolved only at instantiation (libclang does not spell the member's name); omplens reads
// the name from the text, so the host's writes to `hA[i]` are writes to `dA`'s data: the
// updates stay in the loop (before, OMP207 offered to move both out of it, which would have
// run every kernel on the first run's data and checked only the last run's results).
#include <cstdio>
#include <vector>

template <typename T>
long run(int n, int runs) {
  std::vector<T> hA(n);
  std::vector<T> hC(n);
  T *dA = hA.data();
  T *dC = hC.data();
  long errors = 0;
#pragma omp target data map(alloc: dA[0:n], dC[0:n])
  {
    for (int r = 0; r < runs; r++) {
      for (int i = 0; i < n; i++)
        hA[i] = (T)((i * (r + 1)) % 97);
#pragma omp target update to(dA[0:n])
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        dC[i] = dA[i] * 2;
#pragma omp target update from(dC[0:n])
      for (int i = 0; i < n; i++)
        errors += hC[i] != hA[i] * 2;
    }
  }
  return errors;
}

int main() {
  long e = run<int>(1024, 3) + run<double>(1024, 3);
  printf("errors = %ld\n", e);
  return 0;
}
