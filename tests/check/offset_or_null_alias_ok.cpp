// A kernel in a callee writes through a row pointer that is either an offset into the
// output or null (`b ? out + k * w : nullptr`). The writes land in the caller's buffer: the
// `target update from` after each round is needed and the host's read is fresh (no finding).
#include <cstdio>
#include <cstdlib>

void rows(double *out, int n, int w, bool keep, int round) {
#pragma omp target teams distribute parallel for
  for (int k = 0; k < n; k++) {
    double *row = keep ? out + k * w : nullptr;
    for (int j = 0; j < w; j++)
      if (keep)
        row[j] = k * w + j + round;
  }
}

int main() {
  const int n = 64, w = 8;
  double *out = (double *)malloc(n * w * sizeof(double));
  double total = 0;
#pragma omp target data map(alloc: out[0:n * w])
  for (int round = 0; round < 3; round++) {
    rows(out, n, w, true, round);
#pragma omp target update from(out[0:n * w])
    total += out[round * 5];
  }
  printf("%.1f\n", total);
  free(out);
  return 0;
}
