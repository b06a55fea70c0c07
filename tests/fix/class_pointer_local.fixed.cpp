// A class holding std::vector<double> storage; its method copies data.data() and
// data.size() into locals and runs two kernels on the raw pointers. main calls the method
// in a time-step loop. Implicit rules leave the heap buffers unmapped (zero-length sections).
#include <cstdio>
#include <vector>

class Diffusion {
public:
  std::vector<double> data;
  std::vector<double> work;

  explicit Diffusion(int n) : data(n), work(n, 0.0) {
    for (int i = 0; i < n; i++)
      data[i] = (i % 64 < 32) ? 8.0 : 0.0;
  }

  void step(double nu) {
    double *d = data.data();
    double *w = work.data();
    int n = (int)data.size();
#pragma omp target data map(tofrom: d[0:n]) map(from: w[1:n - 2])
    {
#pragma omp target teams distribute parallel for firstprivate(n, nu)
      for (int i = 1; i < n - 1; i++)
        w[i] = d[i] + nu * (d[i - 1] - 2.0 * d[i] + d[i + 1]);
#pragma omp target teams distribute parallel for firstprivate(n)
      for (int i = 1; i < n - 1; i++)
        d[i] = w[i];
    }
  }

  double checksum() const {
    double s = 0.0;
    for (size_t i = 0; i < data.size(); i++)
      s += data[i] * (double)(i % 7 + 1);
    return s;
  }
};

int main() {
  const int n = 4096;
  Diffusion sim(n);
  for (int t = 0; t < 12; t++)
    sim.step(0.25);
  std::printf("checksum=%.6f d[31]=%.6f d[32]=%.6f\n", sim.checksum(), sim.data[31], sim.data[32]);
  return 0;
}
