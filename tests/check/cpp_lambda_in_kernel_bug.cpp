// A lambda held in a local variable and called in a kernel: omplens follows its body at the
// call. It writes `out` (mapped `to` only), so the host reads stale data; and it reads `in`,
// so the copy of `in` is needed (it was reported as never read, with a fix to `alloc` that
// would have broken the program).
#include <cstdio>
#include <cstdlib>

int main() {
  const int n = 2048;
  double *in = (double *)malloc(n * sizeof(double));
  double *out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    in[i] = (double)(i % 7);
    out[i] = 0.0;
  }
  auto square = [=](int k) { out[k] = in[k] * in[k]; };

#pragma omp target teams distribute parallel for map(to: in[0:n], out[0:n])
  for (int i = 0; i < n; i++)
    square(i);

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += out[i];
  printf("sum = %.1f\n", sum);
  free(in);
  free(out);
  return 0;
}
