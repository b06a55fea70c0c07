// Exercises `declare target` list form, to(...), link(...), device_type(any/host/nohost) on global arrays/scalars shared by several functions.
#include <stdio.h>

#define N 128

double coeff[N];
int nsteps = 3;
double table[16];
double big_lookup[N];
double host_log[8];

#pragma omp declare target(coeff, nsteps)
#pragma omp declare target to(table) device_type(any)
#pragma omp declare target link(big_lookup)

/* only ever used on the host */
static int log_count = 0;
void host_note(double v) {
  host_log[log_count++ % 8] = v;
}
#pragma omp declare target to(host_note) device_type(host)

/* device-only variant: clang rejects calls to nohost functions from code that may fall back to
   the host, so it is declared (and available for the device image) but never called here */
double device_fast_scale(double x) { return 4.0 * x; }
#pragma omp declare target to(device_fast_scale) device_type(nohost)

void init_tables(void) {
  for (int i = 0; i < N; i++) {
    coeff[i] = 1.0 + (double)(i % 4);
    big_lookup[i] = (double)(N - i);
  }
  for (int i = 0; i < 16; i++)
    table[i] = (double)(i * i);
  /* globals live on the device already: refresh the device copies */
#pragma omp target update to(coeff, table)
}

void apply(double *v, int n) {
  /* link: storage is mapped on demand */
#pragma omp target teams distribute parallel for map(tofrom: v[0:n]) map(to: big_lookup)
  for (int i = 0; i < n; i++)
    v[i] = v[i] * coeff[i] + table[i % 16] + big_lookup[i] * (double)nsteps;
}

void scale_coeff(double f) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++)
    coeff[i] *= f;
#pragma omp target update from(coeff)
}

int main(void) {
  double v[N];
  for (int i = 0; i < N; i++)
    v[i] = 1.0;
  init_tables();
  apply(v, N);
  host_note(v[0]);
  scale_coeff(0.5);
  nsteps = 1;
#pragma omp target update to(nsteps)
  apply(v, N);
  host_note(v[0]);

  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += v[i];
  printf("v[0]=%.2f v[N-1]=%.2f sum=%.2f coeff[3]=%.2f\n", v[0], v[N - 1], s, coeff[3]);
  printf("log: %.2f %.2f (%d notes)\n", host_log[0], host_log[1], log_count);
  return 0;
}
