// A kernel writes a class's vector member through a local pointer into it
// (`len = &mesh->lengths[0]`, as LULESH does with its Domain's arrays); the region maps the
// pointer `alloc`, and `target update from` copies the results back before the host reads
// the member directly: the working version of cpp_member_alias_stale_bug.cpp.
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
#pragma omp target update from(len[0:n])
    for (int i = 0; i < n; i++)
      total += mesh->lengths[i];
  }
  std::printf("%.1f\n", total);
  delete mesh;
  return 0;
}
