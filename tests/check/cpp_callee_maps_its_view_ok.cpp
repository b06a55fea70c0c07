// A helper maps what its kernel uses itself, through local views of its vectors (`p =
// a.data()` in `map(tofrom: p[0:n])`), so the results are back on the host when it returns.
// `main` holds a view of `a` too (`pa`), whose presence alone omplens cannot tell. The
// helper names no parameter in its clauses, but it maps: the data is not taken as left on the
// device by a caller (a false OMP101 at the host's read, once).
#include <cstdio>
#include <vector>

void relax(std::vector<double> &a, const std::vector<double> &f, double h) {
  double *p = a.data();
  const double *q = f.data();
  int n = (int)a.size();
#pragma omp target teams distribute parallel for map(to: q[0:n]) map(tofrom: p[0:n])
  for (int i = 0; i < n; i++)
    p[i] = 0.5 * p[i] + h * q[i];
}

int main() {
  const int n = 1024;
  std::vector<double> a(n, 0.0), f(n);
  for (int i = 0; i < n; i++)
    f[i] = (double)((i * 7) % 13);
  double *pa = a.data();
  for (int it = 0; it < 4; it++)
    relax(a, f, 0.25);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += pa[i] * 0.0 + a[i];
  std::printf("sum = %.4f\n", s);
  return 0;
}
