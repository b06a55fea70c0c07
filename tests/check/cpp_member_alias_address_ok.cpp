// Pointers into a member vector's storage, taken with `&dom.v[0]` before the region and again
// inside its loop: taking the address of an element reads and writes nothing of the vector
// (the kernels' accesses through the pointers do). The region keeps the data on the device
// and copies it back once.
#include <cstdio>
#include <vector>

struct Domain {
  std::vector<double> m_e;
};

int main() {
  Domain dom;
  int n = 1024;
  dom.m_e.resize(n, 1.0);
  double *e = &dom.m_e[0];
#pragma omp target data map(tofrom: e[0:n])
  {
    for (int it = 0; it < 3; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        e[i] += 1.0;
      double *scaled = &dom.m_e[0];
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        scaled[i] *= 2.0;
    }
  }
  std::printf("e[5]=%.1f\n", e[5]);
  return 0;
}
