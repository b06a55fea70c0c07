// Exercises struct members as list items: s.f, p->f, s.arr[lo:len], p->data[0:n], nested s.inner.f, structs passed by value and by pointer.
#include <stdio.h>
#include <stdlib.h>

#define CAP 64

typedef struct {
  double lo, hi;
} Range;

typedef struct {
  int n;
  double fixed[CAP];
  double *data;
  Range range;
} Series;

static double clip(double v, double lo, double hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}
#pragma omp declare target to(clip)

/* struct by pointer: map the pointee's members through p-> */
static void clip_series(Series *p) {
#pragma omp target teams distribute parallel for map(to: p->range, p->n) map(tofrom: p->data[0:p->n])
  for (int i = 0; i < p->n; i++)
    p->data[i] = clip(p->data[i], p->range.lo, p->range.hi);
}

/* struct by value: the copy's members are mapped */
static double sum_fixed(Series s) {
  double total = 0.0;
#pragma omp target map(to: s.fixed[0:s.n], s.n) map(tofrom: total)
  for (int i = 0; i < s.n; i++)
    total += s.fixed[i];
  return total;
}

int main(void) {
  Series s;
  s.n = 48;
  s.data = (double *)malloc(sizeof(double) * s.n);
  s.range.lo = 5.0;
  s.range.hi = 20.0;
  for (int i = 0; i < CAP; i++)
    s.fixed[i] = (double)(i % 9);
  for (int i = 0; i < s.n; i++)
    s.data[i] = (double)i;

  /* member scalar and member array section */
#pragma omp target map(tofrom: s.fixed[8:16]) map(to: s.range.hi)
  for (int i = 8; i < 24; i++)
    s.fixed[i] = s.fixed[i] + s.range.hi;

  clip_series(&s);

  /* map the whole struct plus its pointee */
  Series *ps = &s;
#pragma omp target map(tofrom: ps->data[0:ps->n]) map(to: ps->n)
  for (int i = 0; i < ps->n; i++)
    ps->data[i] *= 2.0;

  double tot = sum_fixed(s);
  double sd = 0.0;
  for (int i = 0; i < s.n; i++)
    sd += s.data[i];
  printf("sum(fixed)=%.1f sum(data)=%.1f data[0]=%.1f data[47]=%.1f\n", tot, sd, s.data[0], s.data[47]);
  free(s.data);
  return 0;
}
