// Exercises templates with offload kernels: a function template instantiated for float and double and a class template instantiated for int and double.
#include <cstdio>

template <typename T>
void axpy(T *y, const T *x, T a, int n) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

template <typename T>
T sum(const T *x, int n) {
  T s = T(0);
#pragma omp target teams distribute parallel for map(to: x[0:n]) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

template <typename T, int N>
class Ring {
public:
  Ring() {
    for (int i = 0; i < N; i++)
      buf[i] = T(i % 7);
  }
  void rotate_add(T v) {
    T tmp[N];
#pragma omp target map(to: buf) map(from: tmp)
    for (int i = 0; i < N; i++)
      tmp[i] = buf[(i + 1) % N] + v;
    for (int i = 0; i < N; i++)
      buf[i] = tmp[i];
  }
  T total() const {
    T s = T(0);
    for (int i = 0; i < N; i++)
      s += buf[i];
    return s;
  }
  T first() const { return buf[0]; }

private:
  T buf[N];
};

int main() {
  const int n = 128;
  float xf[n], yf[n];
  double xd[n], yd[n];
  for (int i = 0; i < n; i++) {
    xf[i] = float(i % 8);
    yf[i] = 1.0f;
    xd[i] = double(i % 8);
    yd[i] = 2.0;
  }
  axpy<float>(yf, xf, 0.5f, n);
  axpy(yd, xd, 0.25, n);
  float sf = sum(yf, n);
  double sd = sum<double>(yd, n);

  Ring<int, 32> ri;
  Ring<double, 48> rd;
  ri.rotate_add(3);
  rd.rotate_add(0.5);
  rd.rotate_add(0.5);
  std::printf("sum float=%.2f double=%.2f ring<int>=%d/%d ring<double>=%.2f/%.2f\n",
              sf, sd, ri.total(), ri.first(), rd.total(), rd.first());
  return 0;
}
