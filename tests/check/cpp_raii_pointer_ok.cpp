// An RAII guard over a raw array: its constructor enters the data, its destructor copies it
// back at the end of the block. The host reads the array after the block, once the
// destructor has run.
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

static void square(double *a, long n) {
#pragma omp target teams distribute parallel for
  for (long i = 0; i < n; i++)
    a[i] = a[i] * a[i];
}

int main() {
  const long n = 2048;
  double *a = new double[n];
  for (long i = 0; i < n; i++)
    a[i] = (double)(i % 5);
  {
    OnDevice guard(a, n);
    square(a, n);
  }
  double sum = 0.0;
  for (long i = 0; i < n; i++)
    sum += a[i];
  std::printf("sum=%.1f\n", sum);
  delete[] a;
  return 0;
}
