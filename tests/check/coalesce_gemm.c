/* GEMM-like nest (Polybench style, the paper's Figure 8): only i is parallel, so every access
 * strides a whole row between threads; collapse(2) makes C and B consecutive in j. */
#include <stdio.h>
#define NI 64
#define NJ 64
#define NK 64
int main(void) {
  static double A[NI * NK], B[NK * NJ], C[NI * NJ];
  for (int i = 0; i < NI * NK; i++) A[i] = (i % 7) * 0.5;
  for (int i = 0; i < NK * NJ; i++) B[i] = (i % 5) * 0.25;
  for (int i = 0; i < NI * NJ; i++) C[i] = 1.0;
  double alpha = 1.5, beta = 1.2;
#pragma omp target teams distribute parallel for map(to: A, B) map(tofrom: C)
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++) {
      C[i * NJ + j] *= beta;
      for (int k = 0; k < NK; ++k)
        C[i * NJ + j] += alpha * A[i * NK + k] * B[k * NJ + j];
    }
  }
  double s = 0;
  for (int i = 0; i < NI * NJ; i++) s += C[i] * (i % 3 + 1);
  printf("checksum %.3f\n", s);
  return 0;
}
