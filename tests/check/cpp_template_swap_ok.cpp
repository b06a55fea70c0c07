// A function template that ping-pongs two buffers with `std::swap`: in a template the call
// is resolved only at instantiation, and it exchanges the two pointers, not their data. The
// kernel reads the buffer the last step wrote on the device; nothing is stale.
#include <cstdio>
#include <cstdlib>
#include <utility>

template <typename T>
void smooth(T *x, int n, int steps) {
  T *y = (T *)malloc(sizeof(T) * n);
#pragma omp target data map(tofrom: x[0:n]) map(alloc: y[0:n])
  {
    for (int s = 0; s < steps; s++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        y[i] = 2 * x[i];
      std::swap(x, y);
    }
  }
  free(y);
}

int main() {
  float *a = (float *)malloc(100 * sizeof(float));
  for (int i = 0; i < 100; i++)
    a[i] = i;
  smooth(a, 100, 2);
  printf("%f\n", a[5]);
  free(a);
  return 0;
}
