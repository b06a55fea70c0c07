/* A kernel writes the image through a device function (`shade(x, y, img + idx)`) for every
 * pixel but the axes (`if (x != half && y != half)`): the axes keep the zeros the host put
 * there, which `tofrom` copies in and back. Before, a call's write inside a kernel cleared
 * the pending copy in as if it overwrote all of it: OMP204 said no kernel reads `img`, with a
 * fix mapping it `from` that would have returned uninitialized axes (HeCBench colorwheel). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma omp declare target
static void shade(int x, int y, unsigned char *px) {
  for (int b = 0; b < 3; b++)
    px[b] = (unsigned char)((x * 3 + y * 5 + b * 7) % 251);
}
#pragma omp end declare target

int main(void) {
  const int size = 64, half = 32;
  const size_t bytes = (size_t)size * size * 3;
  unsigned char *img = malloc(bytes);
  memset(img, 0, bytes);
#pragma omp target data map(tofrom: img[0:bytes])
  {
    for (int r = 0; r < 3; r++) {
#pragma omp target teams distribute parallel for collapse(2)
      for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
          if (x != half && y != half) {
            size_t idx = ((size_t)y * size + x) * 3;
            shade(x, y, img + idx);
          }
        }
    }
  }
  long s = 0;
  for (size_t i = 0; i < bytes; i++)
    s += img[i] * (long)(i % 13 + 1);
  printf("%ld\n", s);
  free(img);
  return 0;
}
