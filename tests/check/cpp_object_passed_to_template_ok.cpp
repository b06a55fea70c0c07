// Each thread of a kernel builds an object on `out` (its constructor keeps the pointer in a
// member) and hands it to a function template whose method call on it depends on the
// template parameter: the template may write `out` through the object, so the `from` of
// the region carries the kernel's results (HeCBench's interval passes its `global_stack`
// to `newton_interval_naive<T, THREADS>`).
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

template <class Sink>
void fill_row(Sink &sink, int t) {
  for (int k = 0; k < 16; k++)
    sink.put(t * 100 + k);
}

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
      fill_row(s, t);
    }
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += out[i];
  std::printf("sum %.1f out[5] %.1f\n", sum, out[5]);
  delete[] out;
  return 0;
}
