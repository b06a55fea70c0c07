// An RAII guard inside a function that returns a value: the destructor copies the data back
// after the return value is computed, before the caller reads the array.
#include <cstdio>

struct OnDevice {
  OnDevice(double *a, long n) : a_(a), n_(n) {
#pragma omp target enter data map(to: a[0:n])
  }
  ~OnDevice() {
    double *a = a_;
    long n = n_;
#pragma omp target exit data map(from: a[0:n])
  }
  double *a_;
  long n_;
};

static long square_all(double *a, long n) {
  OnDevice guard(a, n);
#pragma omp target teams distribute parallel for
  for (long i = 0; i < n; i++)
    a[i] = a[i] * a[i];
  return n;
}

int main() {
  const long n = 2048;
  double *a = new double[n];
  for (long i = 0; i < n; i++)
    a[i] = (double)(i % 5);
  long done = square_all(a, n);
  double sum = 0.0;
  for (long i = 0; i < n; i++)
    sum += a[i];
  std::printf("sum=%.1f done=%ld\n", sum, done);
  delete[] a;
  return 0;
}
