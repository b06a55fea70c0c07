// A kernel stores a whole struct into each element of its output (`out[i] = v;`), which C++
// spells as a call of the struct's `operator=` on the element. Before, the element was taken
// as the call's receiver, read as well as written: the output, mapped `alloc` and written
// whole by the kernel, counted as read before written on the device, and after the host
// changed it between two runs the second kernel's "read" of it was stale (HeCBench md,
// OMP102).
#include <cstdio>
#include <cstdlib>

struct Force {
  float x, y, z;
};

static void compute(const float *pos, Force *out, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) {
    Force f;
    f.x = pos[i] * 2.0f;
    f.y = pos[i] + 1.0f;
    f.z = -pos[i];
    out[i] = f;
  }
}

int main() {
  const int n = 1000;
  float *pos = (float *)malloc(n * sizeof(float));
  Force *out = (Force *)malloc(n * sizeof(Force));
  for (int i = 0; i < n; i++)
    pos[i] = (float)(i % 11);
  double s = 0;
#pragma omp target data map(to: pos[0:n]) map(alloc: out[0:n])
  {
    compute(pos, out, n);
#pragma omp target update from(out[0:n])
    for (int i = 0; i < n; i++) {
      s += out[i].x + out[i].y + out[i].z;
      out[i].x = 0;
    }
    compute(pos, out, n);
#pragma omp target update from(out[0:n])
    for (int i = 0; i < n; i++)
      s += out[i].x;
  }
  printf("%.1f\n", s);
  free(pos);
  free(out);
  return 0;
}
