// A function object holding pointers is called in a kernel. OpenMP maps the object by
// copying its bytes: its pointer members keep host addresses (they are not attached to the
// mapped arrays, unlike a lambda's captured pointers), so the kernel reads and writes the
// host's arrays, not their device copies. The copy of `a` to the device is never read, and
// `b`'s device copy, never written, is copied back over the host's results. (On a GPU the
// kernel faults.) Mapping the members' data through the object, or building the object
// inside the kernel from the mapped pointers, fixes it.
#include <cstdio>
#include <cstdlib>

struct Scale {
  const double *in;
  double *out;
  double factor;
  void operator()(int i) const { out[i] = factor * in[i]; }
};

int main() {
  const int n = 4096;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 9);
  Scale scale{a, b, 0.5};

#pragma omp target data map(to: a[0:n]) map(from: b[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      scale(i);
  }

  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += b[i];
  std::printf("sum = %.1f\n", sum);
  free(a);
  free(b);
  return 0;
}
