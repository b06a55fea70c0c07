// An RAII guard declared in a loop body that the loop leaves with `break` or skips to the
// next iteration with `continue`: its destructor copies the data back on both ways out. A
// `break` out of a `switch` inside the body leaves the guard alive.
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

int main() {
  const long n = 4096;
  double *a = new double[n];
  for (long i = 0; i < n; i++)
    a[i] = (double)(i % 7);
  double total = 0.0;
  for (int step = 0; step < 8; step++) {
    OnDevice guard(a, n);
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++)
      a[i] = 0.5 * a[i] + 1.0;
    switch (step % 3) {
    case 0:
      break; // leaves the switch only: the guard stays
    default:
      total += 1.0;
    }
#pragma omp target teams distribute parallel for
    for (long i = 0; i < n; i++)
      a[i] += 0.25;
    if (step % 2 == 1)
      continue;
    if (step == 6)
      break;
  }
  for (long i = 0; i < n; i++)
    total += a[i];
  std::printf("total=%.3f\n", total);
  delete[] a;
  return 0;
}
