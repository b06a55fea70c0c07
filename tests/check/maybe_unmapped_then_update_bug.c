/* The kernel uses `work` through a pointer that is mapped only when `setup` holds: when it
 * does not, the device has no copy (OMP103 on some paths, the defect). What follows is
 * judged on the paths where the data is mapped: the `target update from` brings the
 * kernel's results back before the host reads them, so that read is not reported again. */
#include <stdio.h>
#include <stdlib.h>

static float *work;

static float gain(int setup, int c, int num) {
  if (setup) {
#pragma omp target enter data map(alloc: work[0:num])
  }
#pragma omp target teams distribute parallel for
  for (int i = 0; i < num; i++)
    work[i] = i * 0.5f + c;
#pragma omp target update from(work[0:num])
  float total = 0;
  for (int i = 0; i < num; i++)
    total += work[i];
  if (setup) {
#pragma omp target exit data map(delete: work[0:num])
  }
  return total;
}

int main(int argc, char **argv) {
  int num = 1000;
  work = (float *)malloc(num * sizeof(float));
  float s = 0;
  for (int c = 0; c < 4; c++)
    s += gain(argc < 5, c, num) + gain(argc > 5, c, num);
  printf("%.1f\n", s);
  free(work);
  return 0;
}
