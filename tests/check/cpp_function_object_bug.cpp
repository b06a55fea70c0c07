// A function object whose members are assigned one by one (`op.out = b;`) writes `b` in the
// kernel, but `b` is mapped `to` only: the host then reads stale data.
#include <cstdio>
#include <cstdlib>

struct Square {
  const double *in;
  double *out;
  void operator()(int i) const { out[i] = in[i] * in[i]; }
};

int main() {
  const int n = 2048;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    a[i] = (double)(i % 5);
    b[i] = 0.0;
  }
  Square op;
  op.in = a;
  op.out = b;

#pragma omp target data map(to: a[0:n], b[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      op(i);
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += b[i];
  std::printf("sum = %.1f\n", sum);
  free(a);
  free(b);
  return 0;
}
