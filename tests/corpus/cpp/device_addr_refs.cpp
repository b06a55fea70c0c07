// Exercises C++ device-address clauses: omp_target_alloc + is_device_ptr, use_device_ptr on a heap member, use_device_addr/has_device_addr on a reference to an array.
#include <cstdio>
#include <cstdlib>
#ifdef _OPENMP
#include <omp.h>
#endif

static const int kN = 128;

static double *device_alloc(int n, int dev) {
#ifdef _OPENMP
  return static_cast<double *>(omp_target_alloc(sizeof(double) * n, dev));
#else
  (void)dev;
  return static_cast<double *>(std::malloc(sizeof(double) * n));
#endif
}

static void device_free(double *p, int dev) {
#ifdef _OPENMP
  omp_target_free(p, dev);
#else
  (void)dev;
  std::free(p);
#endif
}

static void fill_ref(double (&arr)[kN], double v) {
#pragma omp target data map(tofrom: arr)
  {
#pragma omp target data use_device_addr(arr)
    {
#pragma omp target has_device_addr(arr)
      for (int i = 0; i < kN; i++)
        arr[i] = v * double(i % 4);
    }
  }
}

struct Buffer {
  int n;
  double *p;
};

int main() {
  int dev = 0;
#ifdef _OPENMP
  dev = omp_get_default_device();
#endif
  double *d = device_alloc(kN, dev);
#pragma omp target teams distribute parallel for is_device_ptr(d) device(dev)
  for (int i = 0; i < kN; i++)
    d[i] = double(i);

  double arr[kN];
  fill_ref(arr, 2.0);

#pragma omp target teams distribute parallel for is_device_ptr(d) map(tofrom: arr)
  for (int i = 0; i < kN; i++)
    arr[i] += d[i];

  Buffer b{kN, new double[kN]};
  for (int i = 0; i < kN; i++)
    b.p[i] = 1.0;
  double *bp = b.p;
#pragma omp target data map(tofrom: bp[0:kN]) use_device_ptr(bp)
  {
#pragma omp target is_device_ptr(bp)
    for (int i = 0; i < kN; i++)
      bp[i] *= 4.0;
  }

  double s = 0.0, t = 0.0;
  for (int i = 0; i < kN; i++) {
    s += arr[i];
    t += b.p[i];
  }
  std::printf("sum(arr)=%.1f sum(b)=%.1f arr[5]=%.1f\n", s, t, arr[5]);
  delete[] b.p;
  device_free(d, dev);
  return 0;
}
