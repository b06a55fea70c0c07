// No data mapping at all: C++ class methods launching kernels on heap member arrays (copied into local pointers) in a time-step loop.
#include <cstdio>

class Wave {
public:
  explicit Wave(int n) : n_(n), cur_(new double[n]), prev_(new double[n]), next_(new double[n]) {
    for (int i = 0; i < n; i++) {
      cur_[i] = (i > n / 3 && i < n / 2) ? 1.0 : 0.0;
      prev_[i] = cur_[i];
      next_[i] = 0.0;
    }
  }
  ~Wave() {
    delete[] cur_;
    delete[] prev_;
    delete[] next_;
  }
  Wave(const Wave &) = delete;
  Wave &operator=(const Wave &) = delete;

  void step(double c2) {
    double *cur = cur_, *prev = prev_, *next = next_;
    int n = n_;
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; i++)
      next[i] = 2.0 * cur[i] - prev[i] + c2 * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; i++) {
      prev[i] = cur[i];
      cur[i] = next[i];
    }
  }

  double energy() const {
    double e = 0.0;
    for (int i = 0; i < n_; i++)
      e += cur_[i] * cur_[i];
    return e;
  }

private:
  int n_;
  double *cur_, *prev_, *next_;
};

int main() {
  Wave w(256);
  for (int t = 0; t < 30; t++) {
    w.step(0.25);
    if (t % 10 == 9)
      std::printf("t=%d energy=%.9f\n", t, w.energy());
  }
  return 0;
}
