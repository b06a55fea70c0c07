// A time loop re-declares the alias of a member's data it already has outside (`double *mass
// = &d.mass[0];` in both places, as LULESH does) and sends the data again on every step,
// although nothing changes it: the update can move before the loop, where the outer alias
// of the same name points to the same storage.
#include <cstdio>
#include <vector>

struct Domain {
  std::vector<double> mass;
  std::vector<double> energy;
};

int main() {
  const int n = 256;
  Domain d;
  d.mass.assign(n, 2.0);
  d.energy.assign(n, 0.0);
  double *mass = &d.mass[0];
  double *energy = &d.energy[0];
#pragma omp target data map(to: mass[0:n]) map(tofrom: energy[0:n])
  for (int step = 0; step < 8; step++) {
    double *mass = &d.mass[0];
#pragma omp target update to(mass[0:n])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      energy[i] += mass[i] * step;
  }
  double total = 0;
  for (int i = 0; i < n; i++)
    total += energy[i];
  printf("%.1f\n", total);
  return 0;
}
