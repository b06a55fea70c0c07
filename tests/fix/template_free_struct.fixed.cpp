// A plain C++ struct with `int n; double a[N];` passed by reference to a function whose
// kernel works on s.a[i] (and reads s.n). Implicit rules map the whole struct tofrom at every
// launch; an expert maps the struct once around the loop in main.
#include <cstdio>

const int N = 2048;

struct Series {
  int n;
  double a[N];
};

void advance(Series &s, double c) {
#pragma omp target teams distribute parallel for map(tofrom: s) firstprivate(c)
  for (int i = 0; i < s.n; i++)
    s.a[i] = 0.5 * s.a[i] + c * (double)(i % 4);
}

double total(const Series &s) {
  double t = 0.0;
  for (int i = 0; i < s.n; i++)
    t += s.a[i];
  return t;
}

int main() {
  Series s;
  s.n = N;
  for (int i = 0; i < s.n; i++)
    s.a[i] = (double)(i % 9);
#pragma omp target data map(tofrom: s)
  for (int step = 0; step < 15; step++)
    advance(s, 1.0 + 0.5 * (step % 3));
  std::printf("total=%.6f a[0]=%.6f a[5]=%.6f a[2047]=%.6f\n", total(s), s.a[0], s.a[5], s.a[N - 1]);
  return 0;
}
