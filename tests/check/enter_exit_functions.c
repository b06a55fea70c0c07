/* Unstructured mapping across functions: `device_init` enters the state (`to`) and the
 * scratch (`alloc`), `device_fini` copies the state back and deletes the scratch. Between
 * them a time loop runs kernels, and every 5 steps brings the state to the host for a
 * progress line; the last step runs after the last progress line, so the exit's copy back
 * is needed too. */
#include <stdio.h>
#include <stdlib.h>

static void device_init(double *u, double *tmp, int n) {
#pragma omp target enter data map(to: u[0:n]) map(alloc: tmp[0:n])
}

static void device_fini(double *u, double *tmp, int n) {
#pragma omp target exit data map(from: u[0:n]) map(delete: tmp[0:n])
}

static void advance(double *u, double *tmp, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    tmp[i] = u[(i + 1) % n] - u[i];
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    u[i] = u[i] + 0.5 * tmp[i];
}

int main(void) {
  int n = 2048;
  double *u = (double *)malloc(n * sizeof(double));
  double *tmp = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    u[i] = (double)(i % 32);

  device_init(u, tmp, n);
  for (int t = 1; t <= 16; t++) {
    advance(u, tmp, n);
    if (t % 5 == 0) {
#pragma omp target update from(u[0:n])
      printf("step %d: u[0]=%.6f u[17]=%.6f\n", t, u[0], u[17]);
    }
  }
  device_fini(u, tmp, n);

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += u[i];
  printf("sum=%.6f\n", sum);
  free(u);
  free(tmp);
  return 0;
}
