// The time loop keeps a raw view of a mesh field (`area = &dom->m_area[0]`) that its kernels
// write; between steps a helper reads the field through the mesh (`report(*dom)`), not through
// the view. The helper reads the member's data on the host, so the device's results must come
// back before each call.
#include <cstdio>
#include <vector>

struct Mesh {
  std::vector<double> m_area;
  int n;
  explicit Mesh(int n) : m_area(n), n(n) {}
};

static double report(const Mesh &m) {
  double s = 0.0;
  for (int i = 0; i < m.n; i++)
    s += m.m_area[i];
  return s;
}

int main() {
  Mesh *dom = new Mesh(2048);
  const int n = dom->n;
  double *area = &dom->m_area[0];
  for (int i = 0; i < n; i++)
    area[i] = 1.0;
  double total = 0.0;
#pragma omp target data map(tofrom: area[0:n])
  for (int step = 0; step < 5; step++) {
#pragma omp target teams distribute parallel for firstprivate(n)
    for (int i = 0; i < n; i++)
      area[i] = area[i] * 1.5 + (i % 3);
#pragma omp target update from(area[0:n])
    total += report(*dom);
  }
  std::printf("total %.3f\n", total);
  delete dom;
  return 0;
}
