// Working twin of cpp_unmapped_vector_bug.cpp: the input buffer is mapped `to` by its raw
// pointer and length.
#include <cstdio>
#include <vector>

static double blur(const std::vector<double> &in, std::vector<double> &out) {
  const double *src = in.data();
  double *dst = out.data();
  int n = (int)in.size();
#pragma omp target teams distribute parallel for map(to: src[0:n]) map(from: dst[0:n])
  for (int i = 0; i < n; i++)
    dst[i] = 0.25 * src[(i + n - 1) % n] + 0.5 * src[i] + 0.25 * src[(i + 1) % n];
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += dst[i] * (double)(i % 5);
  return s;
}

int main() {
  const int n = 2048;
  std::vector<double> in(n), out(n);
  for (int i = 0; i < n; i++)
    in[i] = (double)(i % 32);
  std::printf("weighted=%.4f\n", blur(in, out));
  return 0;
}
