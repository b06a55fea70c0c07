/* Functions over pointer-to-array parameters (`double g[][N][N]`) called with flat buffers
 * cast at the call (`(grid *)p`), the shape of many 3-D mini-apps; a device function reads
 * the grid too. The sections the kernels need are in rows of N*N doubles, the caller's
 * buffers in doubles: the region in main must map N*N*N doubles, not N. */
#include <stdio.h>
#include <stdlib.h>
#define N 8
typedef double grid[N][N];

#pragma omp declare target
double grad(double g[][N][N], int x, int y, int z) {
  return g[x][y][z] - g[x - 1][y][z];
}
#pragma omp end declare target

void force(double phi[][N][N], double f[][N][N]) {
  #pragma omp target teams distribute parallel for collapse(3) map(to: phi[0:N]) map(tofrom: f[1:N - 1])
  for (int x = 1; x < N; x++)
    for (int y = 0; y < N; y++)
      for (int z = 0; z < N; z++)
        f[x][y][z] = grad(phi, x, y, z) + phi[x][y][z];
}

int main() {
  double *p = (double *)malloc(sizeof(double) * N * N * N);
  double *f = (double *)malloc(sizeof(double) * N * N * N);
  for (int i = 0; i < N * N * N; i++) { p[i] = i % 7; f[i] = 0; }
  #pragma omp target data map(to: p[0:64 * N], f[64:64 * N - 64])
  for (int t = 0; t < 3; t++) {
    force((grid *)p, (grid *)f);
    #pragma omp target update from(f[64:64 * N - 64])
    for (int i = 0; i < N * N * N; i++) p[i] += f[i] * 0.01;
    #pragma omp target update to(p[0:64 * N])
  }
  double s = 0;
  for (int i = 0; i < N * N * N; i++) s += p[i];
  printf("%.6f\n", s);
  free(p);
  free(f);
  return 0;
}
