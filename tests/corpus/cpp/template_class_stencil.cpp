// Exercises a class template Grid<T> with heap storage whose methods run stencil kernels in a time-step loop under target data, instantiated for float and double.
#include <cstdio>

template <typename T>
class Grid {
public:
  Grid(int nx, int ny) : nx_(nx), ny_(ny), a_(new T[nx * ny]), b_(new T[nx * ny]) {
    for (int i = 0; i < nx * ny; i++) {
      a_[i] = T((i % nx) == nx / 2 ? 16 : 0);
      b_[i] = T(0);
    }
  }
  ~Grid() {
    delete[] a_;
    delete[] b_;
  }
  Grid(const Grid &) = delete;
  Grid &operator=(const Grid &) = delete;

  void run(int steps, T k) {
    T *a = a_, *b = b_;
    int nx = nx_, ny = ny_, n = nx_ * ny_;
#pragma omp target data map(tofrom: a[0:n]) map(alloc: b[0:n])
    {
      for (int s = 0; s < steps; s++) {
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = 0; i < ny; i++)
          for (int j = 0; j < nx; j++) {
            int c = i * nx + j;
            T l = j > 0 ? a[c - 1] : a[c];
            T r = j < nx - 1 ? a[c + 1] : a[c];
            T u = i > 0 ? a[c - nx] : a[c];
            T d = i < ny - 1 ? a[c + nx] : a[c];
            b[c] = a[c] + k * (l + r + u + d - T(4) * a[c]);
          }
#pragma omp target teams distribute parallel for
        for (int c = 0; c < n; c++)
          a[c] = b[c];
      }
    }
  }

  T sum() const {
    T s = T(0);
    for (int i = 0; i < nx_ * ny_; i++)
      s += a_[i];
    return s;
  }
  T at(int i, int j) const { return a_[i * nx_ + j]; }

private:
  int nx_, ny_;
  T *a_, *b_;
};

int main() {
  Grid<double> gd(32, 16);
  Grid<float> gf(16, 8);
  gd.run(10, 0.125);
  gf.run(5, 0.125f);
  std::printf("double: sum=%.6f centre=%.6f\n", gd.sum(), gd.at(8, 16));
  std::printf("float: sum=%.4f centre=%.4f\n", double(gf.sum()), double(gf.at(4, 8)));
  return 0;
}
