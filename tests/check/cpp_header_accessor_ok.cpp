// The working version of cpp_header_accessor_bug.cpp: `target update from` copies the
// kernel's results back before the accessor in include/field_store.h reads them.
#include "include/field_store.h"
#include <cstdio>

static double smallest(FieldStore &fs) {
  double m = 1e30;
  for (int i = 0; i < fs.size(); i++)
    if (fs.area(i) < m)
      m = fs.area(i);
  return m;
}

int main() {
  const int n = 128;
  FieldStore *fs = new FieldStore(n);
  double *area = &fs->m_area[0];
  double acc = 0.0;
#pragma omp target data map(alloc: area[0:n])
  for (int step = 1; step <= 4; step++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      area[i] = step + 0.5 * i;
#pragma omp target update from(area[0:n])
    acc += smallest(*fs);
  }
  std::printf("%.2f\n", acc);
  delete fs;
  return 0;
}
