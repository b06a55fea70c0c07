// Exercises a C++ class with a fixed-size member array whose methods offload on this->data (explicit this-> sections and implicit member use).
#include <cstdio>

class Histogram {
public:
  static const int kBins = 64;

  Histogram() {
    for (int i = 0; i < kBins; i++)
      data[i] = 0.0;
    total = 0.0;
  }

  void fill_ramp(double slope) {
#pragma omp target teams distribute parallel for map(from: this->data[0:kBins])
    for (int i = 0; i < kBins; i++)
      this->data[i] = slope * (double)i;
  }

  void scale(double f) {
    /* implicit use of the member array through `this` */
#pragma omp target teams distribute parallel for map(tofrom: data)
    for (int i = 0; i < kBins; i++)
      data[i] *= f;
  }

  void add(const Histogram &other) {
#pragma omp target teams distribute parallel for map(tofrom: this->data[0:kBins]) map(to: other.data[0:kBins])
    for (int i = 0; i < kBins; i++)
      this->data[i] += other.data[i];
  }

  double sum() {
    double s = 0.0;
#pragma omp target teams distribute parallel for map(to: this->data[0:kBins]) reduction(+: s)
    for (int i = 0; i < kBins; i++)
      s += data[i];
    total = s;
    return s;
  }

  double at(int i) const { return data[i]; }
  double last_total() const { return total; }

private:
  double data[kBins];
  double total;
};

int main() {
  Histogram a, b;
  a.fill_ramp(1.0);
  b.fill_ramp(0.5);
  a.scale(2.0);
  a.add(b);
  double s = a.sum();
  std::printf("a[10]=%.2f a[63]=%.2f sum=%.2f cached=%.2f\n", a.at(10), a.at(63), s, a.last_total());
  return 0;
}
