// A launcher in a project header: it maps `a` without a copy in, fills it on the device and
// leaves it mapped (no `target exit data`, no copy back).
static void fill_on_device(double *a, int n) {
#pragma omp target enter data map(alloc: a[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    a[i] = 2.0 * i;
}
