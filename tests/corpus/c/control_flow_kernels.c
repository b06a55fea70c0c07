// Exercises kernels under control flow: switch with fallthrough and break, early returns, break/continue in host loops around kernels.
#include <stdio.h>

#define N 128

enum Op { OP_SCALE, OP_SHIFT, OP_SCALE_SHIFT, OP_RESET, OP_NONE };

static void apply_op(double *a, int n, enum Op op) {
  switch (op) {
  case OP_SCALE_SHIFT:
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
      a[i] *= 2.0;
    /* fallthrough */
  case OP_SHIFT:
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
      a[i] += 1.0;
    break;
  case OP_SCALE:
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
      a[i] *= 3.0;
    break;
  case OP_RESET: {
#pragma omp target teams distribute parallel for map(from: a[0:n])
    for (int i = 0; i < n; i++)
      a[i] = 0.0;
    break;
  }
  default:
    break;
  }
}

/* returns early when nothing has to be done */
static int damp(double *a, int n, double limit) {
  if (n <= 0)
    return 0;
  double mx = 0.0;
#pragma omp target teams distribute parallel for map(to: a[0:n]) reduction(max: mx)
  for (int i = 0; i < n; i++)
    mx = a[i] > mx ? a[i] : mx;
  if (mx <= limit)
    return 0;
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++)
    if (a[i] > limit)
      a[i] = limit;
  return 1;
}

int main(void) {
  double a[N];
  for (int i = 0; i < N; i++)
    a[i] = (double)(i % 5);

  enum Op ops[] = {OP_SCALE, OP_NONE, OP_SCALE_SHIFT, OP_SHIFT, OP_RESET, OP_SHIFT, OP_SCALE};
  int nops = (int)(sizeof(ops) / sizeof(ops[0]));
  int damped = 0;
  for (int k = 0; k < nops; k++) {
    if (ops[k] == OP_NONE)
      continue;
    apply_op(a, N, ops[k]);
    damped += damp(a, N, 20.0);
    if (k == 2) {
      printf("after op %d: a[4]=%.1f\n", k, a[4]);
    }
    if (ops[k] == OP_RESET)
      break;
  }
  printf("damped=%d a[0]=%.1f a[4]=%.1f\n", damped, a[0], a[4]);

  /* second phase: loop with break once the device result converges */
  int iters = 0;
  for (;;) {
    apply_op(a, N, OP_SHIFT);
    iters++;
    if (damp(a, N, 6.0))
      break;
    if (iters > 100)
      break;
  }
  printf("iters=%d a[0]=%.1f damp(empty)=%d\n", iters, a[0], damp(a, 0, 1.0));
  return 0;
}
