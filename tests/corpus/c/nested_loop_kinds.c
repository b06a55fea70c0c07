// Exercises kernels nested in every host loop kind (for/while/do nested in each other), time-step loops and host reductions over device results inside loops.
#include <stdio.h>

#define N 128

int main(void) {
  double u[N], r[N];
  double history[64];
  int nh = 0;
  for (int i = 0; i < N; i++) {
    u[i] = (double)(i % 16);
    r[i] = 0.0;
  }

#pragma omp target data map(tofrom: u) map(alloc: r)
  {
    /* for (time steps) > while (sub-iterations) > kernel */
    for (int step = 0; step < 3; step++) {
      int sub = 0;
      while (sub < 2) {
#pragma omp target teams distribute parallel for
        for (int i = 1; i < N - 1; i++)
          r[i] = 0.5 * (u[i - 1] + u[i + 1]) - u[i];
#pragma omp target teams distribute parallel for
        for (int i = 1; i < N - 1; i++)
          u[i] += 0.5 * r[i];
        sub++;
      }
      /* host reduction over device results, every step */
#pragma omp target update from(u)
      double s = 0.0;
      for (int i = 0; i < N; i++)
        s += u[i];
      history[nh++] = s;
    }

    /* do-while (until small) > for (blocks) > kernel */
    int rounds = 0;
    double resid;
    do {
      resid = 0.0;
      for (int blk = 0; blk < 4; blk++) {
        int lo = blk * (N / 4), hi = lo + N / 4;
        double part = 0.0;
#pragma omp target teams distribute parallel for reduction(+: part)
        for (int i = lo; i < hi; i++) {
          u[i] *= 0.5;
          part += u[i];
        }
        resid += part;
      }
      history[nh++] = resid;
      rounds++;
    } while (resid > 10.0 && rounds < 20);

    /* while > do > for nested on the host, kernel in the innermost body */
    int outer = 0;
    while (outer < 2) {
      int inner = 0;
      do {
        for (int rep = 0; rep < 2; rep++) {
#pragma omp target teams distribute parallel for
          for (int i = 0; i < N; i++)
            u[i] += 1.0;
        }
        inner++;
      } while (inner < 2);
      outer++;
    }
  }

  for (int k = 0; k < nh; k++)
    printf("history[%d]=%.6f\n", k, history[k]);
  printf("u[0]=%.6f u[64]=%.6f\n", u[0], u[64]);
  return 0;
}
