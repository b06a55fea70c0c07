// Source of the captured INFO log cpp_members.txt (clang++-19 -std=c++17 -O1 -g, host
// offload, LIBOMPTARGET_INFO=35): implicit member array (this->a), explicit member pointer
// section, an implicit member pointer whose pointee is never mapped (a blind spot: it shows as
// tofrom(this->heap)[8]), struct member maps and a firstprivate array. Not built by the tests.
#include <cstdio>
#include <cstdlib>
struct Grid {
  static const int N = 64;
  double a[N];
  double *heap;
  int n;
  Grid() : heap(new double[N]), n(N) { for (int i = 0; i < N; i++) { a[i] = i; heap[i] = i; } }
  void step() {
    #pragma omp target
    for (int i = 0; i < N; i++) a[i] += 1;
  }
  void step_heap() {
    #pragma omp target map(tofrom: heap[0:n])
    for (int i = 0; i < n; i++) heap[i] += 1;
  }
  void step_heap_bad() {
    #pragma omp target
    for (int i = 0; i < n; i++) heap[i] += 1;
  }
  void step_member_map() {
    #pragma omp target map(tofrom: a[0:N])
    for (int i = 0; i < N; i++) a[i] *= 2;
  }
};
struct S { double v[8]; int k; };
int main() {
  Grid g;
  g.step();
  g.step_heap();
  g.step_heap_bad();
  g.step_member_map();
  S s; for (int i = 0; i < 8; i++) s.v[i] = i; s.k = 2;
  #pragma omp target map(tofrom: s.v[0:8]) map(to: s.k)
  for (int i = 0; i < 8; i++) s.v[i] *= s.k;
  int fp[4] = {1,2,3,4}; int out = 0;
  #pragma omp target firstprivate(fp) map(from: out)
  { out = fp[0] + fp[3]; }
  std::printf("%g %g %g %d\n", g.a[3], g.heap[3], s.v[3], out);
  return 0;
}
