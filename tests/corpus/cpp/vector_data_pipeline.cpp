// Exercises std::vector storage offloaded via .data() through a multi-stage pipeline inside one target data region with updates between stages.
#include <cstdio>
#include <vector>

struct Pipeline {
  std::vector<double> input, stage1, stage2;
  explicit Pipeline(int n) : input(n), stage1(n, 0.0), stage2(n, 0.0) {
    for (int i = 0; i < n; i++)
      input[i] = double((i * 7) % 23);
  }
};

static double run(Pipeline &p, int passes) {
  int n = int(p.input.size());
  double *in = p.input.data();
  double *s1 = p.stage1.data();
  double *s2 = p.stage2.data();
  double checksum = 0.0;

#pragma omp target data map(to: in[0:n]) map(alloc: s1[0:n]) map(from: s2[0:n])
  {
    for (int pass = 0; pass < passes; pass++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        s1[i] = in[i] + double(pass);

#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        s2[i] = (i > 0 ? s1[i - 1] : 0.0) + s1[i];

      /* the host edits the input between passes */
      for (int i = 0; i < n; i += 10)
        in[i] += 1.0;
#pragma omp target update to(in[0:n])
    }
#pragma omp target update from(s2[0:n])
    for (int i = 0; i < n; i++)
      checksum += s2[i];
  }
  return checksum;
}

int main() {
  Pipeline p(400);
  double c = run(p, 3);
  std::vector<double> &out = p.stage2;
  std::printf("checksum=%.1f out[1]=%.1f out[399]=%.1f\n", c, out[1], out[399]);
  return 0;
}
