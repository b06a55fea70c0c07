// Exercises goto-based error handling and a goto loop around target enter/exit data and kernels.
#include <stdio.h>
#include <stdlib.h>

static int process(int n, int fail_at, double *out_sum) {
  int rc = -1;
  double *a = (double *)malloc(sizeof(double) * n);
  double *b = NULL;
  if (!a)
    goto done;
  b = (double *)malloc(sizeof(double) * n);
  if (!b)
    goto free_a;
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 10);

#pragma omp target enter data map(to: a[0:n]) map(alloc: b[0:n])
  int pass = 0;
again:
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    b[i] = a[i] + (double)pass;
  pass++;
  if (pass == fail_at)
    goto unmap; /* error: result is discarded */
  if (pass < 3)
    goto again;

#pragma omp target exit data map(from: b[0:n]) map(release: a[0:n])
  {
    double s = 0.0;
    for (int i = 0; i < n; i++)
      s += b[i];
    *out_sum = s;
  }
  rc = 0;
  goto free_b;

unmap:;
#pragma omp target exit data map(delete: a[0:n], b[0:n])
free_b:
  free(b);
free_a:
  free(a);
done:
  return rc;
}

int main(void) {
  double s = 0.0;
  int rc1 = process(100, 10, &s);
  printf("rc=%d sum=%.1f\n", rc1, s);
  s = -1.0;
  int rc2 = process(100, 2, &s);
  printf("rc=%d sum=%.1f\n", rc2, s);
  return 0;
}
