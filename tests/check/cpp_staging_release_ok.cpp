// A staging object keeps the pointer it was given in a member and unmaps through that member
// in a method: `Staged s(grid, n)` enters the data, `s.release()` copies it back. The host
// reads the grid only after the release, so it sees the kernel's values.
#include <cstdio>

class Staged {
public:
  Staged(float *data, int count) : data_(data), count_(count) {
#pragma omp target enter data map(to: data[0:count])
  }
  void release() {
    float *data = data_;
    int count = count_;
#pragma omp target exit data map(from: data[0:count])
  }

private:
  float *data_;
  int count_;
};

static void shift(float *g, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    g[i] = g[i] + 0.5f;
}

int main() {
  const int n = 1024;
  float *grid = new float[n];
  for (int i = 0; i < n; i++)
    grid[i] = (float)(i % 7);
  Staged s(grid, n);
  shift(grid, n);
  s.release();
  float acc = 0.0f;
  for (int i = 0; i < n; i++)
    acc += grid[i];
  std::printf("acc=%.1f\n", acc);
  delete[] grid;
  return 0;
}
