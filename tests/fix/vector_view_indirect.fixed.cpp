// Fields live in std::vector members of a mesh; main takes raw pointers to their data once
// and the kernels index them through a connectivity list (`x[en[k]]`), which no loop bound
// limits: that view maps its whole vector, `x[0:dom->m_x.size()]`. The list itself, read
// through the kernel's own pointer `en = nodes + 8 * e`, is bounded by the loops: `nodes[0:8 * ne]`.
#include <cstdio>
#include <vector>

struct Mesh {
  std::vector<double> m_x, m_f;
  std::vector<int> m_nodes;
  Mesh(int ne, int nn) : m_x(nn), m_f(ne), m_nodes(8 * ne) {}
};

int main() {
  const int ne = 512, nn = 729;
  Mesh *dom = new Mesh(ne, nn);
  double *x = &dom->m_x[0];
  double *f = dom->m_f.data();
  int *nodes = &dom->m_nodes[0];
  for (int i = 0; i < nn; i++)
    x[i] = 0.25 * (i % 11);
  for (int e = 0; e < ne; e++)
    for (int k = 0; k < 8; k++)
      nodes[8 * e + k] = (e * 3 + k * 17) % nn;
#pragma omp target data map(to: nodes[0:8 * ne]) map(tofrom: x[0:dom->m_x.size()], f[0:ne])
  for (int step = 0; step < 4; step++) {
#pragma omp target teams distribute parallel for firstprivate(ne)
    for (int e = 0; e < ne; e++) {
      const int *en = nodes + 8 * e;
      double s = 0.0;
      for (int k = 0; k < 8; k++)
        s += x[en[k]];
      f[e] = s;
    }
#pragma omp target teams distribute parallel for firstprivate(nn)
    for (int i = 0; i < nn; i++)
      x[i] += 0.001 * i;
  }
  double sum = 0.0;
  for (int e = 0; e < ne; e++)
    sum += f[e];
  std::printf("sum %.5f\n", sum);
  delete dom;
  return 0;
}
