// A benchmark's timing loop: every repetition puts the host's data back over the device's
// copy (`target update to`) and times the kernel that clamps it in place, so each repetition
// starts from the same input. The restore is what the loop means: the kernel reads the
// host's data on purpose, and the result copied back at the end of the region is one
// repetition's, as the program checks. (HeCBench's hexciton, asmooth and haccmk time their
// kernels so.)
#include <chrono>
#include <cstdio>
#include <cstdlib>

int main() {
  const int n = 4096, repeat = 3;
  double *v = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    v[i] = 0.25 * (i % 16);
  long total = 0;
#pragma omp target data map(tofrom: v[0:n])
  {
    for (int r = 0; r < repeat; r++) {
#pragma omp target update to(v[0:n])
      auto start = std::chrono::steady_clock::now();
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        v[i] = v[i] > 2.0 ? 2.0 : v[i];
      auto end = std::chrono::steady_clock::now();
      total += std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    }
  }
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += v[i];
  printf("sum = %.2f (%s)\n", sum, total >= 0 ? "timed" : "?");
  free(v);
  return 0;
}
