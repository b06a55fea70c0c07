// A host function template runs a kernel function template on arrays from `new T[n]`; the
// kernel walks blocks through pointers it derives from its parameters (`in = d_in + b * B`).
// The call `scale_blocks<B>(in, out, n)` depends on the template parameter: libclang leaves it
// unresolved, and only one function of that name takes three arguments. An expert keeps both
// arrays on the device across the repeated launches and copies `out` back once.
#include <cstdio>

template <int B>
void scale_blocks(const int *d_in, int *d_out, int n) {
#pragma omp target teams distribute firstprivate(n)
  for (int b = 0; b < n / B; b++) {
    const int *in = d_in + b * B;
    int *out = d_out + b * B;
#pragma omp parallel for
    for (int i = 0; i < B; i++)
      out[i] = 2 * in[i] + (i > 0 ? in[i - 1] : 0);
  }
}

template <int B>
long run(int n, int repeat) {
  n = n / B * B;
  int *in = new int[n];
  int *out = new int[n];
  for (int i = 0; i < n; i++)
    in[i] = i % 13;
#pragma omp target data map(to: in[0:n]) map(from: out[0:n])
  for (int r = 0; r < repeat; r++)
    scale_blocks<B>(in, out, n);
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += out[i] * (i % 7);
  delete[] in;
  delete[] out;
  return sum;
}

int main() {
  printf("%ld\n", run<64>(4096, 5));
  printf("%ld\n", run<32>(1000, 3));
  return 0;
}
