// A kernel calls a function template whose parameters have template types: the template's
// reads of the mapped arrays are the kernel's reads.
#include <cstdio>

#pragma omp declare target
template <class Counts, class Values>
double row_sum(int r, Counts counts, Values values, int width) {
  double s = 0.0;
  for (int j = 0; j < counts[r]; j++)
    s += values[r * width + j];
  return s;
}
#pragma omp end declare target

int main() {
  const int rows = 16, width = 4;
  int *counts = new int[rows];
  double *values = new double[rows * width];
  double *sums = new double[rows];
  for (int i = 0; i < rows; i++) {
    counts[i] = i % width;
    for (int j = 0; j < width; j++)
      values[i * width + j] = j + 1;
  }
  const int *c = counts;
  const double *v = values;
#pragma omp target teams distribute parallel for map(to: c[0:rows], v[0:rows*width]) map(from: sums[0:rows])
  for (int i = 0; i < rows; i++)
    sums[i] = row_sum(i, c, v, width);
  std::printf("%.1f\n", sums[rows - 1]);
  delete[] counts;
  delete[] values;
  delete[] sums;
  return 0;
}
