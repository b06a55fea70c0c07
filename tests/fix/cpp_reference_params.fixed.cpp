// A function taking std::vector<double> by reference runs a kernel through a.data(); main
// calls it in a loop. The kernel sees only the raw pointer, which implicit rules map as a
// zero-length section (unmapped); an expert maps the buffers once around main's loop.
#include <cstdio>
#include <vector>

void relax(std::vector<double> &a, const std::vector<double> &f, double h) {
  double *p = a.data();
  const double *q = f.data();
  int n = (int)a.size();
#pragma omp target teams distribute parallel for map(to: q[0:n]) map(tofrom: p[0:n]) firstprivate(h, n)
  for (int i = 0; i < n; i++)
    p[i] = 0.5 * p[i] + h * q[i];
}

double weighted_sum(const std::vector<double> &a) {
  double s = 0.0;
  for (size_t i = 0; i < a.size(); i++)
    s += a[i] * (double)(i % 3 + 1);
  return s;
}

int main() {
  const int n = 1024;
  std::vector<double> a(n, 0.0), f(n);
  for (int i = 0; i < n; i++)
    f[i] = (double)((i * 7) % 13);
  for (int it = 0; it < 20; it++)
    relax(a, f, 0.25);
  std::printf("wsum=%.6f a[1]=%.6f a[12]=%.6f\n", weighted_sum(a), a[1], a[12]);
  return 0;
}
