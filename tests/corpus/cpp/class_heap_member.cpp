// Exercises a C++ class owning a heap member array: enter data in the constructor, exit data in the destructor, update/present maps in methods.
#include <cstdio>

class DeviceVector {
public:
  explicit DeviceVector(int n) : n_(n), v_(new double[n]) {
    for (int i = 0; i < n_; i++)
      v_[i] = 0.0;
    double *v = v_;
#pragma omp target enter data map(to: v[0:n])
  }

  ~DeviceVector() {
    double *v = v_;
    int n = n_;
#pragma omp target exit data map(delete: v[0:n])
    delete[] v_;
  }

  DeviceVector(const DeviceVector &) = delete;
  DeviceVector &operator=(const DeviceVector &) = delete;

  void iota(double start) {
    double *v = v_;
    int n = n_;
#pragma omp target teams distribute parallel for map(present, alloc: v[0:n])
    for (int i = 0; i < n; i++)
      v[i] = start + (double)i;
  }

  void axpy(double a, const DeviceVector &x) {
    /* member pointers used through this-> inside the kernel (already present: alloc only looks them up) */
#pragma omp target teams distribute parallel for map(alloc: this->v_[0:this->n_], x.v_[0:x.n_]) map(to: this->n_)
    for (int i = 0; i < this->n_; i++)
      this->v_[i] += a * x.v_[i];
  }

  void pull() {
    double *v = v_;
    int n = n_;
#pragma omp target update from(v[0:n])
  }

  void host_set(int i, double value) {
    v_[i] = value;
    double *v = v_;
#pragma omp target update to(v[i:1])
  }

  double host_get(int i) const { return v_[i]; }
  int size() const { return n_; }

private:
  int n_;
  double *v_;
};

int main() {
  DeviceVector x(100), y(100);
  x.iota(1.0);
  y.iota(0.0);
  y.axpy(2.0, x);
  y.host_set(0, -5.0);
  y.axpy(1.0, x);
  y.pull();
  double s = 0.0;
  for (int i = 0; i < y.size(); i++)
    s += y.host_get(i);
  std::printf("y[0]=%.1f y[99]=%.1f sum=%.1f\n", y.host_get(0), y.host_get(99), s);
  return 0;
}
