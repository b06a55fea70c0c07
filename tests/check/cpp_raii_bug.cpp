// RAII device mapping: DeviceBuffer enters the data in its constructor and copies it back in
// its destructor. The host reads the vector while the buffer is still alive, before the
// destructor's copy back, and sees the values from before the kernel.
#include <cstdio>
#include <vector>

class DeviceBuffer {
public:
  DeviceBuffer(double *p, int n) : p_(p), n_(n) {
#pragma omp target enter data map(to: p[0:n])
  }
  ~DeviceBuffer() {
    double *p = p_;
    int n = n_;
#pragma omp target exit data map(from: p[0:n])
  }

private:
  double *p_;
  int n_;
};

static void scale(double *p, int n, double f) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    p[i] = p[i] * f + 1.0;
}

int main() {
  const int n = 4000;
  std::vector<double> v(n);
  for (int i = 0; i < n; i++)
    v[i] = (double)(i % 10);
  double total = 0.0;
  {
    DeviceBuffer buf(v.data(), n);
    scale(v.data(), n, 3.0);
    for (int i = 0; i < n; i++)
      total += v[i];
  }
  std::printf("total=%.1f v[9]=%.1f\n", total, v[9]);
  return 0;
}
