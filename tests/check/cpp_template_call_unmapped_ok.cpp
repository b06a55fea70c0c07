// The working version of cpp_template_call_unmapped_bug.cpp: the caller template maps both
// arrays around the call the kernel template receives them through.
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
#pragma omp target data map(to: x[0:n]) map(tofrom: y[0:n])
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
