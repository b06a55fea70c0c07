// Exercises a realistic C++ mini-app: a particle system class with std::vector storage, target data over the run, kernels in a time-step loop, periodic target update and host diagnostics.
#include <cstdio>
#include <vector>

class ParticleSystem {
public:
  explicit ParticleSystem(int n) : n_(n), x_(n), v_(n), f_(n, 0.0), energy_log_() {
    for (int i = 0; i < n; i++) {
      x_[i] = double(i % 16) * 0.5;
      v_[i] = double((i * 3) % 5) - 2.0;
    }
  }

  void run(int steps, double dt, int report_every) {
    double *x = x_.data(), *v = v_.data(), *f = f_.data();
    int n = n_;
#pragma omp target data map(tofrom: x[0:n], v[0:n]) map(alloc: f[0:n])
    {
      for (int s = 1; s <= steps; s++) {
        compute_forces(x, f, n);
        integrate(x, v, f, n, dt);
        if (s % report_every == 0) {
#pragma omp target update from(v[0:n])
          energy_log_.push_back(kinetic(v, n));
        }
      }
    }
  }

  const std::vector<double> &log() const { return energy_log_; }
  double x_at(int i) const { return x_[i]; }

private:
  static void compute_forces(const double *x, double *f, int n) {
#pragma omp target teams distribute parallel for map(present, to: x[0:n]) map(present, alloc: f[0:n])
    for (int i = 0; i < n; i++) {
      double left = i > 0 ? x[i - 1] : x[i];
      double right = i < n - 1 ? x[i + 1] : x[i];
      f[i] = (left + right - 2.0 * x[i]) - 0.125 * x[i];
    }
  }

  static void integrate(double *x, double *v, const double *f, int n, double dt) {
#pragma omp target teams distribute parallel for map(present, alloc: x[0:n], v[0:n], f[0:n])
    for (int i = 0; i < n; i++) {
      v[i] += dt * f[i];
      x[i] += dt * v[i];
    }
  }

  static double kinetic(const double *v, int n) {
    double e = 0.0;
    for (int i = 0; i < n; i++)
      e += 0.5 * v[i] * v[i];
    return e;
  }

  int n_;
  std::vector<double> x_, v_, f_;
  std::vector<double> energy_log_;
};

int main() {
  ParticleSystem ps(200);
  ps.run(40, 0.0625, 10);
  for (std::size_t i = 0; i < ps.log().size(); i++)
    std::printf("report %zu: kinetic=%.9f\n", i, ps.log()[i]);
  std::printf("x[0]=%.9f x[100]=%.9f\n", ps.x_at(0), ps.x_at(100));
  return 0;
}
