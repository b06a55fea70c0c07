// A C++ class with a pointer member: the caller maps the member's section
// (`map(tofrom: f.data[0:f.n])`) around calls of a method whose kernel works on a local copy
// of the pointer, which finds the data present.
#include <cstdio>
#include <cstdlib>

class Field {
public:
  int n;
  double *data;

  explicit Field(int size) : n(size) {
    data = static_cast<double *>(std::malloc(size * sizeof(double)));
    for (int i = 0; i < n; i++)
      data[i] = static_cast<double>(i % 10);
  }
  ~Field() { std::free(data); }

  void axpb(double a, double b) {
    double *d = data;
    int len = n;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < len; i++)
      d[i] = a * d[i] + b;
  }
};

int main() {
  Field f(5000);
#pragma omp target data map(tofrom: f.data[0:f.n])
  {
    f.axpb(2.0, 1.0);
    f.axpb(0.5, -0.5);
  }
  double sum = 0.0;
  for (int i = 0; i < f.n; i++)
    sum += f.data[i];
  std::printf("sum=%.2f\n", sum);
  return 0;
}
