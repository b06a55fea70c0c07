// The buffers are exchanged by the program's own function (`float *&` parameters) after each
// step, and the host reads `x` inside the region without copying it back: `x` may name the
// buffer a kernel wrote last, whose host copy is stale. The exchange itself is no access to
// the data; the read is reported on some paths (which buffer `x` names depends on the
// number of steps).
#include <cstdio>
#include <cstdlib>

void exchange(float *&a, float *&b) {
  float *t = a;
  a = b;
  b = t;
}

int main() {
  const int n = 1024, steps = 4;
  float *x = (float *)malloc(n * sizeof(float));
  float *y = (float *)malloc(n * sizeof(float));
  float *first = x, *second = y;
  for (int i = 0; i < n; i++)
    x[i] = (float)(i % 8);
#pragma omp target data map(tofrom: x[0:n]) map(alloc: y[0:n])
  {
    for (int s = 0; s < steps; s++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        y[i] = x[i] * 0.5f + 1.0f;
      exchange(x, y);
    }
    printf("x[3] = %.4f\n", x[3]);
  }
  free(first);
  free(second);
  return 0;
}
