// Exercises C++ structs with pointer members: declare mapper on a struct type, struct passed by reference and by pointer, member sections s.f[0:n] / p->f[0:n].
/* Note: clang-19 leaks the base struct's mapping when a mapper is used (llvm issue #60106), so the mapper is used by exactly one construct per object. */
#include <cstdio>
#include <cstdlib>

struct Particles {
  int n;
  double *x;
  double *v;
  double mass;
};

#pragma omp declare mapper(Particles p) map(p, p.x[0:p.n], p.v[0:p.n])

static void init(Particles &p, int n) {
  p.n = n;
  p.mass = 2.0;
  p.x = static_cast<double *>(std::malloc(sizeof(double) * n));
  p.v = static_cast<double *>(std::malloc(sizeof(double) * n));
  for (int i = 0; i < n; i++) {
    p.x[i] = double(i % 10);
    p.v[i] = 1.0;
  }
}

/* by reference: explicit member sections */
static void drift(Particles &p, double dt) {
#pragma omp target teams distribute parallel for map(tofrom: p.x[0:p.n]) map(to: p.v[0:p.n], p.n)
  for (int i = 0; i < p.n; i++)
    p.x[i] += dt * p.v[i];
}

/* by pointer: p->f sections */
static void kick(Particles *p, double f) {
#pragma omp target teams distribute parallel for map(to: p->x[0:p->n], p->n, p->mass) map(tofrom: p->v[0:p->n])
  for (int i = 0; i < p->n; i++)
    p->v[i] += f * (5.0 - p->x[i]) / p->mass;
}

int main() {
  Particles a, b;
  init(a, 120);
  init(b, 80);
  for (int s = 0; s < 4; s++) {
    kick(&a, 0.5);
    drift(a, 0.25);
  }
  /* the default mapper brings x and v along with b */
#pragma omp target teams distribute parallel for map(tofrom: b)
  for (int i = 0; i < b.n; i++) {
    b.v[i] = -b.v[i];
    b.x[i] += b.v[i];
  }
  double sa = 0.0, sb = 0.0;
  for (int i = 0; i < a.n; i++)
    sa += a.x[i];
  for (int i = 0; i < b.n; i++)
    sb += b.x[i];
  std::printf("sum(a.x)=%.4f sum(b.x)=%.4f a.v[0]=%.4f\n", sa, sb, a.v[0]);
  std::free(a.x);
  std::free(a.v);
  std::free(b.x);
  std::free(b.v);
  return 0;
}
