/* Conjugate gradients on a small 1-D Laplacian: several reduction(+:) dot products per
 * iteration over the same device arrays, whose scalar results the host uses to compute
 * alpha and beta. The arrays can stay on the device for the whole solve. */
#include <math.h>
#include <stdio.h>

#define N 512
#define ITERS 20

int main(void) {
  double x[N], r[N], p[N], ap[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    r[i] = 1.0 + (double)(i % 3);
    p[i] = r[i];
    ap[i] = 0.0;
  }

  double rr = 0.0;
#pragma omp target data map(to: r, p) map(tofrom: x) map(alloc: ap)
  {
#pragma omp target teams distribute parallel for reduction(+:rr)
    for (int i = 0; i < N; i++)
      rr += r[i] * r[i];
    printf("initial residual %.6f\n", sqrt(rr));

    for (int it = 0; it < ITERS; it++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++) {
        double left = (i > 0) ? p[i - 1] : 0.0;
        double right = (i < N - 1) ? p[i + 1] : 0.0;
        ap[i] = 2.0 * p[i] - left - right;
      }
      double pap = 0.0;
#pragma omp target teams distribute parallel for reduction(+:pap)
      for (int i = 0; i < N; i++)
        pap += p[i] * ap[i];
      double alpha = rr / pap;
#pragma omp target teams distribute parallel for firstprivate(alpha)
      for (int i = 0; i < N; i++) {
        x[i] += alpha * p[i];
        r[i] -= alpha * ap[i];
      }
      double rr_new = 0.0;
#pragma omp target teams distribute parallel for reduction(+:rr_new)
      for (int i = 0; i < N; i++)
        rr_new += r[i] * r[i];
      double beta = rr_new / rr;
      rr = rr_new;
#pragma omp target teams distribute parallel for firstprivate(beta)
      for (int i = 0; i < N; i++)
        p[i] = r[i] + beta * p[i];
      if (it % 5 == 4)
        printf("iter %d residual %.4f\n", it + 1, sqrt(rr));
    }
  }

  double sx = 0.0;
  for (int i = 0; i < N; i++)
    sx += x[i];
  printf("sum(x)=%.3f x[0]=%.4f x[255]=%.4f\n", sx, x[0], x[N / 2 - 1]);
  return 0;
}
