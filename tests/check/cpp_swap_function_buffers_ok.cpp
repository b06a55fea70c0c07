// Two buffers exchanged after every step by the program's own function, which takes the
// pointers by reference (`float *&`): it sets the caller's pointers and touches no data, so
// the call is neither a host read nor a host write of the buffers (before, the parameters
// were taken for the data: an error inside the function and a stale-device warning at the
// kernel). After an even number of steps `x` names its own buffer again, and the update
// copies the last step's results into it. (HeCBench's meanshift exchanges its buffers so.)
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
#pragma omp target data map(to: x[0:n]) map(alloc: y[0:n])
  {
    for (int s = 0; s < steps; s++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        y[i] = x[i] * 0.5f + 1.0f;
      exchange(x, y);
    }
#pragma omp target update from(x[0:n])
  }
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += first[i];
  printf("sum = %.4f\n", sum);
  free(first);
  free(second);
  return 0;
}
