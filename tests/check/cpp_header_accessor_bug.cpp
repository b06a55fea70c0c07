// A kernel writes a member vector through a pointer into it; the host then reads the member
// through an accessor defined in a project header (include/field_store.h), in a function
// called from the loop. Nothing copies the device's results back: the accessor reads stale
// host data (LULESH's arealg, read through domain.arealg(i) in CalcCourantConstraintForElems).
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
    acc += smallest(*fs);
  }
  std::printf("%.2f\n", acc);
  delete fs;
  return 0;
}
