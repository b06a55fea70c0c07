// A kernel launcher is a template whose team count is a template argument
// (`template <int NT> ... num_teams(NT)`, as HeCBench's lda writes it); the kernel writes one
// element per team, `out[0:NT]` in the template's terms. The region hoisted into the caller
// must not name `NT`, which means nothing there: the data's own extent (`partial.size()`)
// bounds it instead. (Only team 0's sum is printed: a build without OpenMP runs one team.)
#include <cstdio>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_team_num() { return 0; }
#endif
#include <vector>

template <int NT>
void partial_sums(const float *x, int n, float *out) {
#pragma omp target teams num_teams(NT)
  {
    int t = omp_get_team_num();
    float s = 0.0f;
    for (int i = t; i < n; i += NT)
      s += x[i];
    out[t] = s;
  }
}

int main() {
  const int n = 4096;
  std::vector<float> x(n), partial(8);
  for (int i = 0; i < n; i++)
    x[i] = 0.5f * (i % 5);
  float *d_x = x.data();
  float *d_partial = partial.data();
  float total = 0.0f;
  for (int r = 0; r < 3; r++) {
    partial_sums<8>(d_x, n, d_partial);
    total += d_partial[0];
  }
  std::printf("total %.2f\n", total);
  return 0;
}
