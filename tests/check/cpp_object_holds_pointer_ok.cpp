// Each thread of a kernel builds a small object on `out` (its constructor keeps the pointer
// in a member) and writes through it with a method: the kernel writes `out`, so the `from`
// of the region copies results back (HeCBench's interval pushes onto a `global_stack` built
// on its result buffer).
#include <cstdio>

class Strided {
  double *buf;
  int pos;

public:
  Strided(double *b, int start) : buf(b), pos(start) {}
  void put(double v) {
    buf[pos] = v;
    pos += 4;
  }
};

int main() {
  const int n = 64;
  double *out = new double[n];
  for (int i = 0; i < n; i++)
    out[i] = -1.0;
#pragma omp target data map(from: out[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int t = 0; t < 4; t++) {
      Strided s(out, t);
      for (int k = 0; k < 16; k++)
        s.put(t * 100 + k);
    }
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += out[i];
  std::printf("sum %.1f out[5] %.1f\n", sum, out[5]);
  delete[] out;
  return 0;
}
