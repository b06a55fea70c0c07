// A function template computes a scalar of its parameter type between two kernels
// (`Idx count = ...`). The scalar is a value the second kernel gets firstprivate: the region
// around both kernels may enclose its declaration (it needs no map of its own).
#include <cstdio>
#include <cstdlib>

template <typename T, typename Idx>
void normalise(T *v, Idx n, bool minus_one) {
#pragma omp target data map(tofrom: v[0:n])
  {
#pragma omp target teams distribute parallel for
  for (Idx i = 0; i < n; i++)
    v[i] = v[i] * v[i];
  Idx count = minus_one ? n - 1 : n;
#pragma omp target teams distribute parallel for
  for (Idx i = 0; i < n; i++)
    v[i] = v[i] / count;
  }
}

int main() {
  const int n = 512;
  double *v = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    v[i] = i % 16;
  normalise<double, int>(v, n, true);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  printf("%.3f\n", s);
  free(v);
  return 0;
}
