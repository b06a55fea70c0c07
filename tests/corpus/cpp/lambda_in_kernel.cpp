// Exercises C++ lambdas called inside offloaded kernels: one defined on the host (captures by value) and one defined inside the target region.
/* Note: passing a lambda to a function template that offloads fails to load in clang-19 (kernel name contains '$'), so it is not done here. */
#include <cstdio>

int main() {
  const int n = 160;
  double a[n], b[n];
  for (int i = 0; i < n; i++) {
    a[i] = double(i % 10);
    b[i] = 0.0;
  }
  double gain = 3.0, bias = -1.0;

  auto affine = [=](double x) { return gain * x + bias; };
#pragma omp target teams distribute parallel for map(to: a) map(from: b)
  for (int i = 0; i < n; i++)
    b[i] = affine(a[i]);

#pragma omp target map(tofrom: b) firstprivate(gain)
  {
    auto mix = [gain](double x, int i) { return (i % 2 == 0) ? x * gain : x; };
    for (int i = 0; i < n; i++)
      b[i] = mix(b[i], i);
  }

  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += b[i];
  std::printf("b[0]=%.1f b[1]=%.1f b[9]=%.1f sum=%.1f\n", b[0], b[1], b[9], s);
  return 0;
}
