// A host function template calls a kernel function template with `new[]` arrays and maps
// nothing: the kernel gets its pointers as zero-length sections, and on a GPU it dereferences
// host addresses. The call `axpy<K>(...)` depends on the template parameter; it has one
// candidate with three arguments, so omplens follows it.
#include <cstdio>

template <int K>
void axpy(const float *x, float *y, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    y[i] = K * x[i] + y[i];
}

template <int K>
float run(int n) {
  float *x = new float[n];
  float *y = new float[n];
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 5);
    y[i] = 1.0f;
  }
  axpy<K>(x, y, n);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += y[i];
  delete[] x;
  delete[] y;
  return s;
}

int main() {
  printf("%.1f\n", run<3>(1000));
  return 0;
}
