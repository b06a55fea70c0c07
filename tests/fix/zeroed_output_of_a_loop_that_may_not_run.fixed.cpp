// Like output_of_a_loop_that_may_not_run.c, but `out` is value-initialised (`new float[n]()`:
// zeroes) and the timing loop runs no times unless asked: the zeroes must reach the device
// copy that is copied back, so `out` keeps its copy in.
#include <cstdio>
#include <cstdlib>

void compute(int n, const float *x, float *r) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(from: r[0:n]) firstprivate(n)
  for (int i = 0; i < n; i++)
    r[i] = 3.0f * x[i] + 1.0f;
}

int main(int argc, char **argv) {
  int n = 8192;
  int repeat = argc > 1 ? atoi(argv[1]) : 0;
  float *x = new float[n];
  float *out = new float[n]();
  for (int i = 0; i < n; i++)
    x[i] = (float)(i % 17);
#pragma omp target data map(to: x[0:n]) map(tofrom: out[0:n])
  for (int k = 0; k < repeat; k++)
    compute(n, x, out);
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += out[i];
  printf("sum=%.1f\n", sum);
  delete[] x;
  delete[] out;
  return 0;
}
