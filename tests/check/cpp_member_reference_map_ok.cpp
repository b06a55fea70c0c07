// OpenMP 4.5 allowed no member in a `map` clause, so classes written for it map their
// members through local references (`int &s = size;`) and pointer copies. A reference is the
// member itself: `map(alloc: s)` finds the `size` the constructor mapped, and the device's
// `total` comes back through `update from(t)`.
#include <cstdio>

class Accumulator {
  double *data;
  int size;
  double total;

public:
  explicit Accumulator(int n) : data(new double[n]), size(n), total(0.0) {
    for (int i = 0; i < n; i++)
      data[i] = i;
    double *d = data;
    int &s = size;
    double &t = total;
#pragma omp target enter data map(to: d[0:s], s, t)
  }
  ~Accumulator() {
    double *d = data;
    int &s = size;
    double &t = total;
#pragma omp target exit data map(delete: d[0:s], s, t)
    delete[] data;
  }
  void scale(double f) {
    double *d = data;
    int &s = size;
#pragma omp target map(alloc: s)
    for (int i = 0; i < s; i++)
      d[i] *= f;
  }
  double sum() {
    double *d = data;
    int &s = size;
    double &t = total;
#pragma omp target map(alloc: s, t)
    {
      t = 0.0;
      for (int i = 0; i < s; i++)
        t += d[i];
    }
#pragma omp target update from(t)
    return total;
  }
};

int main() {
  Accumulator a(100);
  a.scale(2.0);
  std::printf("sum %.1f\n", a.sum());
  return 0;
}
