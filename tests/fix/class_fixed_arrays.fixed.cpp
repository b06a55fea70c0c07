// A C++ class Field with fixed-size array members u[N] and tmp[N]. step() holds two kernels
// that use the members directly (through `this`); sum() runs on the host. main calls step()
// in a time-step loop, then sum(). Implicit rules map the whole object at every kernel.
#include <cstdio>

class Field {
public:
  static const int N = 2048;
  double u[N];
  double tmp[N];

  Field() {
    for (int i = 0; i < N; i++) {
      u[i] = (double)(i % 32);
      tmp[i] = 0.0;
    }
  }

  void step() {
#pragma omp target data map(tofrom: this->tmp, this->u)
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++) {
        int l = (i + N - 1) % N;
        int r = (i + 1) % N;
        tmp[i] = 0.25 * u[l] + 0.5 * u[i] + 0.25 * u[r];
      }
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++)
        u[i] = tmp[i];
    }
  }

  double sum() const {
    double s = 0.0;
    for (int i = 0; i < N; i++)
      s += u[i];
    return s;
  }
};

int main() {
  Field f;
#pragma omp target data map(tofrom: f)
  for (int t = 0; t < 10; t++)
    f.step();
  std::printf("sum=%.6f u[0]=%.6f u[17]=%.6f u[31]=%.6f\n", f.sum(), f.u[0], f.u[17], f.u[31]);
  return 0;
}
