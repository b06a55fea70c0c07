// A 1-D smoothing that rotates its two buffers with std::swap after each step. After an even
// number of steps `in` names its first buffer again, which holds the device's last results when
// the region ends: the kernels write it through `out` on odd steps, so its `tofrom` is needed,
// not an unchanged copy back.
#include <cstdio>
#include <utility>

#define N 512
#define STEPS 4

int main() {
  double *in = new double[N];
  double *out = new double[N];
  for (int i = 0; i < N; i++)
    in[i] = (i % 16 == 0) ? 16.0 : 0.0;
#pragma omp target data map(tofrom: in[0:N]) map(alloc: out[0:N])
  {
    for (int t = 0; t < STEPS; t++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++) {
        double left = in[(i + N - 1) % N], right = in[(i + 1) % N];
        out[i] = 0.25 * left + 0.5 * in[i] + 0.25 * right;
      }
      std::swap(in, out);
    }
  }
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += in[i] * (i % 3);
  std::printf("sum=%.6f\n", sum);
  delete[] in;
  delete[] out;
  return 0;
}
