// A kernel reads the records of a parameter through pointers to their fields, made from a
// local alias of the array (`p = r + id`, then `pa = &p->a`), as HeCBench's quicksort reaches
// its parent records. The copy of `r` to the device is read: no waste.
#include <stdio.h>
#include <stdlib.h>

struct rec {
  unsigned a, b;
};

static void sums(int n, unsigned *out, struct rec *r) {
#pragma omp target data map(to: r[0:n]) map(from: out[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int id = 0; id < n; id++) {
      struct rec *p = r + id;
      unsigned *pa, *pb;
      pa = &p->a;
      pb = &p->b;
      out[id] = *pa + *pb;
    }
  }
}

int main(void) {
  int n = 64;
  struct rec *r = malloc(n * sizeof(struct rec));
  unsigned *out = malloc(n * sizeof(unsigned));
  for (int i = 0; i < n; i++) {
    r[i].a = i;
    r[i].b = 2 * i;
  }
  sums(n, out, r);
  printf("out[7] = %u\n", out[7]);
  free(r);
  free(out);
  return 0;
}
