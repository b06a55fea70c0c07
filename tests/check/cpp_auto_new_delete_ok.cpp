// A function template holds its arrays in `auto` pointers from `new T[n]` (HeCBench's
// threadcpy). After the region the device's last results are not copied back, and nothing
// reads them: `delete[] out` frees the data without reading it. (With `out` typed `auto` in
// the template, omplens took the `delete[]` for a host read of stale data.)
#include <cstdio>

template <typename T>
T copy_twice(int n) {
  auto in = new T[n];
  auto out = new T[n];
  for (int i = 0; i < n; i++)
    in[i] = (T)(i % 10);
  T first;
#pragma omp target data map(to: in[0:n]) map(alloc: out[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      out[i] = in[i];
#pragma omp target update from(out[0:n])
    first = out[5];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      out[i] = 2 * in[i];
  }
  delete[] in;
  delete[] out;
  return first;
}

int main() {
  printf("%.1f\n", (double)copy_twice<float>(1000));
  return 0;
}
