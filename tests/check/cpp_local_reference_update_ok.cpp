// A local reference is another name for its variable: `target update to(r)` copies `x`,
// which is mapped, and the kernel then reads that device copy.
#include <cstdio>

int main() {
  int x = 3;
  int out[8];
#pragma omp target enter data map(alloc: x, out)
  x = 4;
  int &r = x;
#pragma omp target update to(r)
#pragma omp target map(alloc: x)
  for (int i = 0; i < 8; i++)
    out[i] = x * i;
#pragma omp target exit data map(from: out) map(release: x)
  int s = 0;
  for (int i = 0; i < 8; i++)
    s += out[i];
  std::printf("sum %d x %d\n", s, x);
  return 0;
}
