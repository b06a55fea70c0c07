// A vector class maps its storage for the object's life (constructor `enter data`,
// destructor `exit data`) and brings it back in a method (`target update from`), as
// HeCBench's lsqt does. The method is written for callers in other files: this program
// does not call it, so it cannot know whether the storage is mapped when it runs. Where it is, the
// update copies the results; where it is not, there is no device copy, and the host's is
// the only one. (Before: the update's "present" side copied the unmapped state's "no valid
// device copy" to the host, and the read after it was a stale read on some paths (OMP101).)
#include <cstdio>
#include <cstring>

class Field {
public:
  explicit Field(int n);
  ~Field();
  void scale(double a);
  void copy_to_host(double *out) const;
  double sum() const;

private:
  double *d;
  int n;
};

Field::Field(int n_) : n(n_) {
  d = new double[n];
  for (int i = 0; i < n; i++)
    d[i] = 0.5 * i;
#pragma omp target enter data map(to: d[0:n])
}

Field::~Field() {
#pragma omp target exit data map(delete: d[0:n])
  delete[] d;
}

static void scale_kernel(int n, double *p, double a) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    p[i] *= a;
}

void Field::scale(double a) { scale_kernel(n, d, a); }

void Field::copy_to_host(double *out) const {
#pragma omp target update from(d[0:n])
  std::memcpy(out, d, n * sizeof(double));
}

static double sum_kernel(int n, const double *p) {
  double s = 0.0;
#pragma omp target teams distribute parallel for reduction(+: s)
  for (int i = 0; i < n; i++)
    s += p[i];
  return s;
}

double Field::sum() const { return sum_kernel(n, d); }

int main() {
  Field f(64);
  f.scale(3.0);
  std::printf("%.2f\n", f.sum());
  return 0;
}
