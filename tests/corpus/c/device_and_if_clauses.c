// Exercises device(0), device(omp_get_default_device()) and if(target: ...)/if(...) clauses on kernels and data directives.
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define N 200

static int pick_device(void) {
#ifdef _OPENMP
  return omp_get_default_device();
#else
  return 0;
#endif
}

static void saxpy(double *y, const double *x, double a, int n, int threshold) {
  /* small problems stay on the host */
#pragma omp target teams distribute parallel for if(target: n > threshold) \
    map(tofrom: y[0:n]) map(to: x[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(void) {
  double x[N], y[N];
  int dev = pick_device();
  for (int i = 0; i < N; i++) {
    x[i] = (double)(i % 10);
    y[i] = 1.0;
  }

  saxpy(y, x, 2.0, N, 100); /* offloaded */
  saxpy(y, x, 1.0, 50, 100); /* host fallback */

#pragma omp target data map(tofrom: y) device(0)
  {
#pragma omp target teams distribute parallel for device(0)
    for (int i = 0; i < N; i++)
      y[i] -= 1.0;
  }

#pragma omp target enter data map(to: x) device(dev) if(N > 10)
#pragma omp target teams distribute parallel for device(dev) map(tofrom: y)
  for (int i = 0; i < N; i++)
    y[i] += x[i];
#pragma omp target update from(x) device(dev) if(dev >= 0)
#pragma omp target exit data map(delete: x) device(dev)

#ifdef _OPENMP
  int on_device = 0;
#pragma omp target map(from: on_device) device(omp_get_default_device())
  on_device = 1;
  (void)on_device;
#endif

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += y[i];
  printf("y[0]=%.1f y[9]=%.1f y[150]=%.1f sum=%.1f\n", y[0], y[9], y[150], s);
  return 0;
}
