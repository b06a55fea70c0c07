// A field class wraps its storage: `data()` hands out the pointer, `operator[]` an element.
// The kernel updates the field through the pointer under `map(to:)`, so nothing comes back,
// and the host then sums the old values through `operator[]`.
#include <cstdio>
#include <vector>

class Field {
public:
  explicit Field(int n) : v_(n, 1.0) {}
  double *data() { return v_.data(); }
  double &operator[](int i) { return v_[i]; }
  int size() const { return (int)v_.size(); }

private:
  std::vector<double> v_;
};

int main() {
  const int n = 512;
  Field u(n);
  double *p = u.data();
#pragma omp target data map(to: p[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      p[i] = 2.0 * p[i] + 1.0;
  }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += u[i];
  std::printf("s=%.1f (want %.1f)\n", s, 3.0 * n);
  return 0;
}
