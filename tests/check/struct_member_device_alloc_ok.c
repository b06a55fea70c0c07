// A struct's pointer member holding memory from `omp_target_alloc` is a device address:
// mapping the struct copies that address, and the kernel writes device memory through it.
// The kernel reads only the address from the struct, the host only its `len`; the results
// come back with `omp_target_memcpy` (no "pointer held in a struct" finding, no stale read
// of `buf`, and the copy of `buf` is used: it carries the address).
// (Without OpenMP the member holds host memory, for the sequential reference.)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

struct buffer {
  int len;
  double *data;
};

int main(void) {
  struct buffer buf;
  buf.len = 300;
  double host[300];
#ifdef _OPENMP
  int dev = omp_get_default_device();
  buf.data = (double *)omp_target_alloc(buf.len * sizeof(double), dev);
#else
  buf.data = (double *)malloc(buf.len * sizeof(double));
#endif
  int n = buf.len;
#pragma omp target teams distribute parallel for map(to: buf)
  for (int i = 0; i < n; i++)
    buf.data[i] = 0.25 * i;
  printf("len %d\n", buf.len);
#ifdef _OPENMP
  omp_target_memcpy(host, buf.data, buf.len * sizeof(double), 0, 0,
                    omp_get_initial_device(), dev);
  omp_target_free(buf.data, dev);
#else
  memcpy(host, buf.data, buf.len * sizeof(double));
  free(buf.data);
#endif
  double s = 0.0;
  for (int i = 0; i < 300; i++)
    s += host[i];
  printf("sum %.2f\n", s);
  return 0;
}
