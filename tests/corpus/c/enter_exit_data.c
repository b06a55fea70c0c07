// Exercises unstructured `target enter data`/`target exit data` with to/alloc/from/release/delete split across init/compute/finalize functions.
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  double *u;
  double *rhs;
} Field;

static void field_init(Field *f, int n) {
  f->n = n;
  f->u = (double *)malloc(sizeof(double) * n);
  f->rhs = (double *)malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    f->u[i] = (double)(i % 10);
    f->rhs[i] = 1.0;
  }
  double *u = f->u, *rhs = f->rhs;
#pragma omp target enter data map(to: u[0:n]) map(alloc: rhs[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    rhs[i] = 0.25 * (double)(i % 4);
}

static void field_step(Field *f) {
  double *u = f->u, *rhs = f->rhs;
  int n = f->n;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    u[i] += rhs[i];
}

static void field_finalize(Field *f) {
  double *u = f->u, *rhs = f->rhs;
  int n = f->n;
  /* copy u back and drop it; rhs is scratch: delete forces removal */
#pragma omp target exit data map(from: u[0:n]) map(delete: rhs[0:n])
  free(rhs);
  f->rhs = NULL;
}

int main(void) {
  Field f;
  int n = 300;
  double scale[4] = {1.0, 2.0, 3.0, 4.0};

  field_init(&f, n);
#pragma omp target enter data map(to: scale)
  for (int step = 0; step < 4; step++)
    field_step(&f);

  double *u = f.u;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    u[i] *= scale[i % 4];
  /* release only decrements the reference count */
#pragma omp target exit data map(release: scale)
  field_finalize(&f);

  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += f.u[i];
  printf("u[0]=%.2f u[7]=%.2f u[n-1]=%.2f sum=%.2f\n", f.u[0], f.u[7], f.u[n - 1], s);
  free(f.u);
  return 0;
}
