// BROKEN ON PURPOSE (must NOT compile): C++ file whose kernel uses an undeclared identifier (`scale_factor`), otherwise well-formed.
#include <cstdio>
#include <vector>

static void scale(std::vector<double> &v) {
  double *p = v.data();
  int n = static_cast<int>(v.size());
#pragma omp target teams distribute parallel for map(tofrom: p[0:n])
  for (int i = 0; i < n; i++)
    p[i] *= scale_factor;
}

int main() {
  std::vector<double> v(32, 1.0);
  scale(v);
  std::printf("%f\n", v[0]);
  return 0;
}
