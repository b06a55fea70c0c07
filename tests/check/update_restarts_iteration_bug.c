/* An iteration that sends its array again at the top of every step: the `target update to`
 * copies the host's initial values over what the previous step's kernel computed, so every
 * step starts from the beginning and the result is one step's, not four's. (The same shape
 * is right in a timing loop that is meant to rerun the kernel on the same input: the finding
 * is a warning that says so.) */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1024, steps = 4;
  double *x = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    x[i] = (double)(i % 8);

#pragma omp target data map(tofrom: x[0:n])
  {
    for (int s = 0; s < steps; s++) {
#pragma omp target update to(x[0:n])
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        x[i] = x[i] * 0.5 + 1.0;
    }
  }

  printf("x[1]=%.4f x[7]=%.4f\n", x[1], x[7]);
  free(x);
  return 0;
}
