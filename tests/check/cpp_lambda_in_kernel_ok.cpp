// Lambdas called in kernels, held in local variables: one defined before the kernel (by
// copy), one inside it (by reference) with a condition in its body. omplens follows their
// bodies at the calls: every map here is needed, and nothing is stale.
#include <cstdio>
#include <cstdlib>

int main() {
  const int n = 4096;
  double *x = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    x[i] = (double)(i % 11);
    y[i] = 1.0;
  }
  auto axpy = [=](int k, double a) { y[k] += a * x[k]; };

#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) {
    auto clamp = [&](double v) {
      if (v > 20.0)
        return 20.0;
      return v;
    };
    axpy(i, 2.0);
    y[i] = clamp(y[i]);
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += y[i];
  printf("sum = %.1f\n", sum);
  free(x);
  free(y);
  return 0;
}
