// Oracle test program: a C++ class with a member array. `scale` maps this->data
// implicitly (one 1024-byte copy each way per call); `shift` maps an explicit member
// section inside a target data region opened by `run`, so the kernel finds it present.
#include <cstdio>

class Signal {
public:
  static const int N = 128;
  double data[N];

  Signal() {
    for (int i = 0; i < N; i++)
      data[i] = 0.5 * i;
  }

  void scale(double f) {
#pragma omp target
    for (int i = 0; i < N; i++)
      data[i] *= f;
  }

  void shift(double d) {
#pragma omp target map(tofrom: data[0:N])
    for (int i = 0; i < N; i++)
      data[i] += d;
  }

  void run() {
#pragma omp target data map(tofrom: data[0:N])
    {
      shift(1.0);
      shift(2.0);
    }
  }

  double sum() const {
    double s = 0.0;
    for (int i = 0; i < N; i++)
      s += data[i];
    return s;
  }
};

int main() {
  Signal s;
  s.scale(2.0);
  s.run();
  std::printf("sum=%.2f first=%.2f last=%.2f\n", s.sum(), s.data[0], s.data[Signal::N - 1]);
  return 0;
}
