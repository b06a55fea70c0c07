// A kernel writes a class's vector member through a local pointer into it
// (`len = &mesh->lengths[0]`, as LULESH does with its Domain's arrays); the region maps the
// pointer `alloc`, nothing copies the results back, and the host then reads the member
// directly. The host sees the vector's old zeros.
#include <cstdio>
#include <vector>

struct Mesh {
  std::vector<double> lengths;
  explicit Mesh(int n) : lengths(n, 0.0) {}
};

int main() {
  const int n = 256;
  Mesh *mesh = new Mesh(n);
  double *len = &mesh->lengths[0];
  double total = 0.0;
#pragma omp target data map(alloc: len[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      len[i] = 1.0 + i;
    for (int i = 0; i < n; i++)
      total += mesh->lengths[i];
  }
  std::printf("%.1f\n", total);
  delete mesh;
  return 0;
}
