// A mesh keeps its fields in std::vector members; the time loop takes raw pointers to their
// data once, before the loop, and one phase takes them again under the same names in an inner
// scope (`Real *ss = &mesh.m_ss[0];`). Both names point into the same data: the region
// around the loop maps the outer pointers, and the kernels that use the inner names find it.
#include <cstdio>
#include <vector>

struct Mesh {
  std::vector<double> m_ss, m_mass, m_e;
  int n;
  explicit Mesh(int n) : m_ss(n), m_mass(n), m_e(n), n(n) {}
};

int main() {
  Mesh *dom = new Mesh(4096);
  int n = dom->n;
  double *ss = &dom->m_ss[0];
  double *mass = &dom->m_mass[0];
  double *e = &dom->m_e[0];
  for (int i = 0; i < n; i++) {
    ss[i] = 1.0 + (i % 7);
    mass[i] = 2.0 + (i % 5);
    e[i] = 0.0;
  }
  for (int step = 0; step < 10; step++) {
    Mesh &mesh = *dom;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      e[i] += 0.5 * ss[i];
    if (step % 2 == 0) {
      double *ss = &mesh.m_ss[0];
      double *mass = &mesh.m_mass[0];
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        e[i] += ss[i] / mass[i];
    }
  }
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += e[i];
  std::printf("sum %.4f\n", sum);
  delete dom;
  return 0;
}
