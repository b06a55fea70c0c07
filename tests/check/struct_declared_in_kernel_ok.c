// A kernel builds a view of mapped data in a struct of its own (`w.p = a`) and reads through
// it: the struct lives on the device and its pointer holds a device address. No finding (an
// OMP103 warning on `w.p` before: the check for pointer members not mapped through the
// member took the kernel's own struct for one the host maps).
#include <stdio.h>
typedef struct { double *p; int n; } view;
int main(void) {
  double a[100];
  for (int i = 0; i < 100; i++) a[i] = i;
  double s = 0;
#pragma omp target map(to: a[0:100]) map(tofrom: s)
  {
    view w;
    w.p = a;
    w.n = 100;
    for (int i = 0; i < w.n; i++) s += w.p[i];
  }
  printf("%.1f\n", s);
  return 0;
}
