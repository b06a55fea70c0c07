// Each round fills a vector of records on the host, maps its storage `to`, lets a kernel
// update the records (the device's changes are scratch, never copied back) and then clears
// the vector. `clear()` destroys the records without reading them, so the host never reads
// what the device changed (HeCBench's quicksort clears its parent records so).
#include <stdio.h>
#include <vector>

struct rec {
  unsigned a, b;
};

int main() {
  int n = 64;
  std::vector<rec> recs;
  std::vector<unsigned> out(n);
  unsigned sum = 0;
  for (int round = 0; round < 3; round++) {
    recs.resize(n);
    for (int i = 0; i < n; i++)
      recs[i] = {(unsigned)(i + round), 0u};
    rec *r = recs.data();
    unsigned *o = out.data();
#pragma omp target data map(to: r[0:n]) map(from: o[0:n])
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) {
        r[i].b += 1;
        o[i] = r[i].a + r[i].b;
      }
    }
    sum += out[7];
    recs.clear();
  }
  printf("sum = %u\n", sum);
  return 0;
}
