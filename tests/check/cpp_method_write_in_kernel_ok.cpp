// A kernel writes its data through a method of each element (`p[i].order()`), inside a timing
// loop that restores the data from the host at the top of each repetition. The method's write
// happens on the device: the update restores what the previous repetition's kernel changed,
// and cannot move before the loop. (Before, a call inside a kernel was not recorded as a
// device access, and OMP207 offered to hoist the update: the fixed program would have run
// each repetition on the previous one's output. HeCBench's gamma-correction writes pixels
// through `set` so.)
#include <chrono>
#include <cstdio>
#include <cstdlib>

struct Pair {
  int lo, hi;
  void order() {
    int a = lo < hi ? lo : hi, b = lo < hi ? hi : lo;
    lo = a;
    hi = b;
  }
};

int main() {
  const int n = 1024, repeat = 3;
  Pair *p = (Pair *)malloc(n * sizeof(Pair));
  for (int i = 0; i < n; i++) {
    p[i].lo = i % 7;
    p[i].hi = i % 5;
  }
  long total = 0;
#pragma omp target data map(tofrom: p[0:n])
  {
    for (int r = 0; r < repeat; r++) {
#pragma omp target update to(p[0:n])
      auto start = std::chrono::steady_clock::now();
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        p[i].order();
      auto end = std::chrono::steady_clock::now();
      total += std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    }
  }
  long s = 0;
  for (int i = 0; i < n; i++)
    s += p[i].lo * 3 + p[i].hi;
  printf("s = %ld (%s)\n", s, total >= 0 ? "timed" : "?");
  free(p);
  return 0;
}
