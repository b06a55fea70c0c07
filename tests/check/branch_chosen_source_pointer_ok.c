/* A kernel in a callee picks its source per element: `src = a` on one branch, `src = b` on
 * the other, then offsets and reads through `src`. Both inputs are read by the kernel. Before,
 * the local alias kept only its first root (`a`), so the caller's `map(to: b[0:nb])` was
 * reported as a copy no kernel reads (OMP204), with a fix mapping it `alloc`. */
#include <stdio.h>
#include <stdlib.h>

static void interleave(const float *a, const float *b, float *out, int na, int nb) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < na + nb; i++) {
    const float *src;
    int k;
    if (i < na) {
      src = a;
      k = i;
    } else {
      src = b;
      k = i - na;
    }
    src += k;
    out[i] = *src * 2.0f;
  }
}

int main(void) {
  const int na = 300, nb = 200;
  float *a = malloc(na * sizeof(float));
  float *b = malloc(nb * sizeof(float));
  float *out = malloc((na + nb) * sizeof(float));
  for (int i = 0; i < na; i++)
    a[i] = (float)(i % 17);
  for (int i = 0; i < nb; i++)
    b[i] = (float)(100 + i % 13);
  double s = 0;
#pragma omp target data map(to: a[0:na], b[0:nb]) map(from: out[0:na+nb])
  {
    interleave(a, b, out, na, nb);
  }
  for (int i = 0; i < na + nb; i++)
    s += out[i] * (i % 7 + 1);
  printf("%.1f\n", s);
  free(a);
  free(b);
  free(out);
  return 0;
}
