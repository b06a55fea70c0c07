// A function object called in a kernel: `Scale` holds pointers, set by a brace initialiser,
// and its call operator reads `in` and writes `out`. omplens follows the object's members to
// the arrays they point to, so both maps are needed and nothing is stale (it reported `out`
// as read stale on the host and `in` as copied for nothing, with a fix to `alloc`).
#include <cstdio>
#include <cstdlib>

struct Scale {
  const double *in;
  double *out;
  double factor;
  void operator()(int i) const { out[i] = factor * in[i]; }
};

int main() {
  const int n = 4096;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 9);
  Scale scale{a, b, 0.5};

#pragma omp target data map(to: a[0:n]) map(from: b[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      scale(i);
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += b[i];
  std::printf("sum = %.1f\n", sum);
  free(a);
  free(b);
  return 0;
}
