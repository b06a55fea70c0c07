// Buggy twin of cpp_staging_release_ok.cpp: the host sums the grid before `s.release()`
// copies the kernel's values back, so it sums the values from before the kernel.
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
  float acc = 0.0f;
  for (int i = 0; i < n; i++)
    acc += grid[i];
  s.release();
  std::printf("acc=%.1f\n", acc);
  delete[] grid;
  return 0;
}
