// A 3-D stencil whose functions take pointer-to-array parameters (`double g[][N][N]`), called
// with flat buffers cast at the call (`(grid *)p`), the shape of many mini-apps. `main`
// allocates both buffers through a cast alias (`double *p = (double *)host`) and maps
// nothing: the kernel in `smooth` uses the data behind both parameters without device copies.
#include <stdio.h>
#include <stdlib.h>

#define N 8
typedef double grid[N][N];

#pragma omp declare target
double centre(double g[][N][N], int x, int y, int z) { return g[x][y][z]; }
#pragma omp end declare target

void smooth(double in[][N][N], double out[][N][N]) {
#pragma omp target teams distribute parallel for collapse(3)
  for (int x = 1; x < N; x++)
    for (int y = 0; y < N; y++)
      for (int z = 0; z < N; z++)
        out[x][y][z] = 0.5 * (centre(in, x, y, z) + in[x - 1][y][z]);
}

int main(void) {
  grid *host = (grid *)malloc(sizeof(grid) * N);
  double *out = (double *)malloc(sizeof(double) * N * N * N);
  for (int x = 0; x < N; x++)
    for (int y = 0; y < N; y++)
      for (int z = 0; z < N; z++)
        host[x][y][z] = x + y + z;
  double *in = (double *)host;
  for (int i = 0; i < N * N * N; i++)
    out[i] = 0;
  smooth((grid *)in, (grid *)out);
  double sum = 0;
  for (int i = 0; i < N * N * N; i++)
    sum += out[i];
  printf("%.1f\n", sum);
  free(host);
  free(out);
  return 0;
}
