// Exercises omp_target_alloc + is_device_ptr, use_device_ptr, use_device_addr and has_device_addr (with a malloc fallback when built without OpenMP).
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define N 256

static void fill_on_device(double *dptr, int n, double v) {
  /* dptr is a device address: no mapping, only is_device_ptr */
#pragma omp target teams distribute parallel for is_device_ptr(dptr)
  for (int i = 0; i < n; i++)
    dptr[i] = v + (double)i;
}

int main(void) {
  int dev = 0;
  double host[N];
  double *d_buf;
#ifdef _OPENMP
  dev = omp_get_default_device();
  d_buf = (double *)omp_target_alloc(sizeof(double) * N, dev);
#else
  d_buf = (double *)malloc(sizeof(double) * N);
#endif
  if (!d_buf) {
    printf("allocation failed\n");
    return 1;
  }

  fill_on_device(d_buf, N, 0.5);

  /* copy the device buffer into a mapped host array with a kernel */
#pragma omp target teams distribute parallel for is_device_ptr(d_buf) map(from: host) device(dev)
  for (int i = 0; i < N; i++)
    host[i] = d_buf[i] * 2.0;
  printf("host[0]=%.1f host[N-1]=%.1f\n", host[0], host[N - 1]);

  /* use_device_ptr: obtain the device address of mapped heap data */
  double *h = (double *)malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++)
    h[i] = 1.0;
#pragma omp target data map(tofrom: h[0:N])
  {
#pragma omp target data use_device_ptr(h)
    {
      /* inside, h holds the device address */
#pragma omp target is_device_ptr(h)
      for (int i = 0; i < N; i++)
        h[i] += 3.0;
    }
  }
  printf("h[0]=%.1f h[N-1]=%.1f\n", h[0], h[N - 1]);

  /* use_device_addr + has_device_addr on an array */
  double arr[N];
  for (int i = 0; i < N; i++)
    arr[i] = (double)(i % 4);
#pragma omp target data map(tofrom: arr)
  {
#pragma omp target data use_device_addr(arr)
    {
#pragma omp target has_device_addr(arr)
      for (int i = 0; i < N; i++)
        arr[i] = arr[i] * 10.0;
    }
  }
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += arr[i];
  printf("sum(arr)=%.1f\n", s);

#ifdef _OPENMP
  omp_target_free(d_buf, dev);
#else
  free(d_buf);
#endif
  free(h);
  return 0;
}
