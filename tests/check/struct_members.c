/* A struct with fixed-size array members: the kernel maps the members it uses, each with
 * its own direction (positions read and written, velocities only read). */
#include <stdio.h>

#define N 2000

struct Particles {
  double x[N];
  double v[N];
};

static struct Particles p;

int main(void) {
  for (int i = 0; i < N; i++) {
    p.x[i] = (double)(i % 10);
    p.v[i] = 0.25 * (double)(i % 4);
  }

  double dt = 2.0;
#pragma omp target teams distribute parallel for map(tofrom: p.x) map(to: p.v)
  for (int i = 0; i < N; i++)
    p.x[i] += dt * p.v[i];

  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += p.x[i];
  printf("sum=%.2f x[3]=%.2f\n", sum, p.x[3]);
  return 0;
}
