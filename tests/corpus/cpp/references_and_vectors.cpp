// Exercises C++ references in offloaded code: double& scalars written by kernels, std::vector<double>& parameters offloaded via .data(), const references.
#include <cstdio>
#include <vector>

static void accumulate(const std::vector<double> &v, double &total) {
  const double *p = v.data();
  int n = static_cast<int>(v.size());
  double t = 0.0;
#pragma omp target teams distribute parallel for map(to: p[0:n]) reduction(+: t)
  for (int i = 0; i < n; i++)
    t += p[i];
  total = t;
}

static void max_into(const std::vector<double> &v, double &result) {
  const double *p = v.data();
  int n = static_cast<int>(v.size());
  /* the reference itself is mapped */
#pragma omp target map(to: p[0:n]) map(tofrom: result)
  for (int i = 0; i < n; i++)
    if (p[i] > result)
      result = p[i];
}

static void scale(std::vector<double> &v, const double &factor) {
  double *p = v.data();
  int n = static_cast<int>(v.size());
  double f = factor;
#pragma omp target teams distribute parallel for map(tofrom: p[0:n]) firstprivate(f)
  for (int i = 0; i < n; i++)
    p[i] *= f;
}

static void count_above(std::vector<double> &v, double threshold, int &count) {
  double *p = v.data();
  int n = static_cast<int>(v.size());
  int c = 0;
#pragma omp target teams distribute parallel for map(to: p[0:n]) map(tofrom: c) reduction(+: c)
  for (int i = 0; i < n; i++)
    if (p[i] > threshold)
      c++;
  count = c;
}

int main() {
  std::vector<double> v(250);
  for (std::size_t i = 0; i < v.size(); i++)
    v[i] = static_cast<double>(i % 20);

  double total = 0.0, mx = -1.0;
  double &alias = total;
  accumulate(v, alias);
  const double factor = 1.5;
  scale(v, factor);
  max_into(v, mx);
  int above = 0;
  count_above(v, 15.0, above);
  std::printf("total=%.1f max=%.1f above=%d v[19]=%.1f\n", total, mx, above, v[19]);
  return 0;
}
