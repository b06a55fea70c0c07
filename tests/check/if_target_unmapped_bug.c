// A kernel with `if(target: ...)` uses a pointer it does not map. When the condition holds
// it runs on the device, where the data is not: a defect, but only on those runs (when the
// condition is false the kernel runs on the host, in the host's memory). So the finding is a
// warning that names the condition, not an error.
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = 1024;
  int offload = argc > 3;
  double *v = malloc(n * sizeof *v);
  for (int i = 0; i < n; i++)
    v[i] = (double)(i % 5);

#pragma omp target teams distribute parallel for if(target: offload)
  for (int i = 0; i < n; i++)
    v[i] = v[i] * 4.0;

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += v[i];
  printf("sum = %.1f\n", sum);
  free(v);
  return 0;
}
