// The data region copies `out` back for a kernel omplens cannot see (a template in
// include/fill_template.h) that writes it: the copy back is needed, so no finding may call it
// unchanged (a fix taking it away would print the host's zeros).
#include <cstdio>
#include "include/fill_template.h"

#define N 1000

int main() {
  float *out = new float[N]();
#pragma omp target data map(tofrom: out[0:N])
  {
    fill_on_device<3>(out, N);
  }
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += out[i];
  std::printf("sum=%.2f\n", sum);
  delete[] out;
  return 0;
}
