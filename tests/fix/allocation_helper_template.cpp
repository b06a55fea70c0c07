// Buffers come from an allocation helper template (`Allocate<double>(n)`, as LULESH writes
// it). A kernel reads each row in a shuffled order (`row[(j * 5) % 8]`), which no loop bound
// limits: the allocation gives the length, `sizeof(T)` being the element of the pointer it is
// stored in.
#include <cstdio>
#include <cstdlib>

template <typename T>
T *Allocate(size_t size) {
  return static_cast<T *>(malloc(sizeof(T) * size));
}

static double *zeros(int n) {
  double *p = (double *)calloc(n, sizeof(double));
  return p;
}

int main() {
  const int n = 1000;
  double *a = Allocate<double>(n);
  double *b = zeros(n / 8);
  for (int i = 0; i < n; i++)
    a[i] = 0.5 * (i % 13);
  for (int r = 0; r < 3; r++) {
#pragma omp target teams distribute parallel for
    for (int k = 0; k < n / 8; k++) {
      const double *row = &a[k * 8];
      double s = 0;
      for (int j = 0; j < 8; j++)
        s += row[(j * 5) % 8];
      b[k] += s;
    }
  }
  double sum = 0;
  for (int i = 0; i < n / 8; i++)
    sum += b[i];
  std::printf("sum %.1f\n", sum);
  free(a);
  free(b);
  return 0;
}
