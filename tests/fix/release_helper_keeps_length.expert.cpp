// Buffers come from `Allocate<T>(n)` and go back through `Release(&p)`, which frees them and
// sets the pointer to null (LULESH's helpers). Taking `&p` for that call gives `p` no other
// allocation, so the length of `Allocate`'s still bounds what the kernel reaches through
// `&f[8 * k]`.
#include <cstdio>
#include <cstdlib>

template <typename T>
T *Allocate(size_t size) {
  return static_cast<T *>(malloc(sizeof(T) * size));
}

template <typename T>
void Release(T **ptr) {
  if (*ptr != NULL) {
    free(*ptr);
    *ptr = NULL;
  }
}

int main() {
  const int ne = 300;
  double *f = Allocate<double>(8 * ne);
  double *sum = Allocate<double>(ne);
  for (int i = 0; i < 8 * ne; i++)
    f[i] = 0.125 * (i % 17);
#pragma omp target teams distribute parallel for map(to: f[0:8 * ne]) map(from: sum[0:ne])
  for (int k = 0; k < ne; k++) {
    const double *fk = &f[8 * k];
    double s = 0.0;
    for (int j = 0; j < 8; j++)
      s += fk[j];
    sum[k] = s;
  }
  double total = 0.0;
  for (int k = 0; k < ne; k++)
    total += sum[k];
  std::printf("total %.3f\n", total);
  Release(&f);
  Release(&sum);
  return 0;
}
