// A kernel of a function template writes its output through `auto c = out + k;`, a local
// whose type clang leaves undeduced (it depends on `T`). Before, such a local was no pointer:
// the writes through it reached nothing, the device never wrote `out`, and the host's read
// after the `target update from` was an OMP101 error ("copied back from device memory that
// nothing initialized"; HeCBench vol2col got an OMP202 on its update).
#include <cstdio>
#include <cstdlib>

template <typename T>
void expand(const T *in, T *out, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) {
    auto c = out + 4 * i;
    for (int k = 0; k < 4; k++) {
      *c = in[i] * (T)(k + 1);
      c += 1;
    }
  }
}

template <typename T>
double run(int n) {
  T *in = (T *)malloc(n * sizeof(T));
  T *out = (T *)malloc(4 * n * sizeof(T));
  for (int i = 0; i < n; i++)
    in[i] = (T)(i % 9);
  for (int i = 0; i < 4 * n; i++)
    out[i] = (T)0;
  double s = 0;
#pragma omp target data map(to: in[0:n]) map(alloc: out[0:4*n])
  {
    expand<T>(in, out, n);
#pragma omp target update from(out[0:4*n])
    for (int i = 0; i < 4 * n; i++)
      s += (double)out[i] * (i % 3 + 1);
  }
  free(in);
  free(out);
  return s;
}

int main() {
  printf("%.1f %.1f\n", run<float>(500), run<int>(500));
  return 0;
}
