// A kernel reads its input through pointers it sets to an element's address
// (`row = (unsigned *)&in[2 * i]`, as HeCBench's epistasis does), and the buffers go back
// through a helper template (`mem_free(p)` calls `free(p)`). Neither writes the input: it is
// copied in only, never back.
#include <cstdio>
#include <cstdlib>

template <typename T>
T *mem_alloc(size_t n) {
  return (T *)malloc(n * sizeof(T));
}

template <typename T>
void mem_free(T *p) {
  free(p);
}

int main() {
  const int n = 512;
  unsigned *in = mem_alloc<unsigned>(2 * n + 2);
  float *out = mem_alloc<float>(n);
  for (int i = 0; i < 2 * n + 2; i++)
    in[i] = (i * 7u) % 23u;
#pragma omp target data map(to: in[0:2 * n + 2]) map(from: out[0:n])
  for (int r = 0; r < 4; r++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
      unsigned *row;
      row = (unsigned *)&in[2 * i];
      out[i] = (float)(row[0] + row[1] + row[2]) + r;
    }
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += out[i] + in[i];
  std::printf("sum %.1f\n", sum);
  mem_free(in);
  mem_free(out);
  return 0;
}
