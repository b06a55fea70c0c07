// A function template receives an object of a class template (`Strided<T> &`) and calls its
// method: the call depends on the template parameter, but the class template has one `put`
// taking one argument, so it is that one (HeCBench's interval calls `result.push(ix)` on its
// `global_stack<...> &`). The method writes through the pointer the constructor kept: the
// kernel writes `out`; `alloc` drops its results and the host sums its own -1s.
#include <cstdio>

template <class T>
class Strided {
  T *buf;
  int pos;

public:
  Strided(T *b, int start) : buf(b), pos(start) {}
  void put(T v) {
    buf[pos] = v;
    pos += 4;
  }
};

template <class T>
void fill_row(Strided<T> &row, int t) {
  for (int k = 0; k < 16; k++)
    row.put(t * 100 + k);
}

int main() {
  const int n = 64;
  double *out = new double[n];
  for (int i = 0; i < n; i++)
    out[i] = -1.0;
#pragma omp target data map(alloc: out[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int t = 0; t < 4; t++) {
      Strided<double> s(out, t);
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
