/* `declare target` globals live on the device for the whole program: the host sends its
 * initial values with `target update to`, the kernels use them in place (no map), and the
 * result is brought back with `target update from`. */
#include <stdio.h>

#define N 1024

#pragma omp declare target
double weights[N];
double state[N];
#pragma omp end declare target

static void step(double dt) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    state[i] = state[i] + dt * weights[i];
}

int main(void) {
  for (int i = 0; i < N; i++) {
    weights[i] = (double)(i % 4);
    state[i] = 1.0;
  }
#pragma omp target update to(weights, state)

  for (int t = 0; t < 8; t++)
    step(0.5);

#pragma omp target update from(state)
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += state[i];
  printf("sum=%.2f state[3]=%.2f\n", sum, state[3]);
  return 0;
}
