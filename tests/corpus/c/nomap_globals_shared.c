// No data mapping at all: global arrays and scalars shared by several functions that each launch kernels.
#include <stdio.h>

#define N 256

double pos[N], vel[N], force[N];
double dt = 0.01;
int nparticles = N;

void compute_forces(void) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    force[i] = -pos[i] * 4.0;
}

void integrate(void) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++) {
    vel[i] += dt * force[i];
    pos[i] += dt * vel[i];
  }
}

double kinetic_energy(void) {
  double e = 0.0;
  for (int i = 0; i < nparticles; i++)
    e += 0.5 * vel[i] * vel[i];
  return e;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    pos[i] = (double)(i % 11) - 5.0;
    vel[i] = 0.0;
  }
  for (int step = 0; step < 10; step++) {
    compute_forces();
    integrate();
  }
  printf("pos[0]=%.6f vel[0]=%.6f ke=%.6f\n", pos[0], vel[0], kinetic_energy());
  return 0;
}
