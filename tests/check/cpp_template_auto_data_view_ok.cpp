// In a function template, `auto p = v.data();` has a type clang leaves undeduced (it depends
// on `T`): the region maps `p[0:n]` and the kernel reads `p[i]` through a template helper.
// Before, the undeduced `auto` was no pointer, so the kernel's `p` was taken as an implicitly
// firstprivate scalar and the mapped copy as unused (OMP204, with a fix mapping it `alloc`:
// HeCBench minmax).
#include <cstdio>
#include <vector>

template <typename T>
struct pt {
  T x, y;
};

template <typename T>
T norm2(const pt<T> &p) {
  return p.x * p.x + p.y * p.y;
}

template <typename T>
T largest(int n) {
  std::vector<pt<T>> v(n);
  for (int i = 0; i < n; i++) {
    v[i].x = (T)(i % 7);
    v[i].y = (T)(i % 5);
  }
  auto p = v.data();
  T best = 0;
#pragma omp target data map(to: p[0:n])
  {
#pragma omp target teams distribute parallel for reduction(max: best)
    for (int i = 0; i < n; i++) {
      T d = norm2(p[i]);
      best = d > best ? d : best;
    }
  }
  return best;
}

int main() {
  printf("%.1f %d\n", (double)largest<float>(1000), largest<int>(1000));
  return 0;
}
