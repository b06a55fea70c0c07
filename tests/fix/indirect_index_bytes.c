/* A kernel indexes an array through another array's values (`data[row * cols + label[row]]`),
 * which no loop bound limits; `data` is allocated with a size in bytes held in a local
 * (`const size_t bytes = n * sizeof(float)`). The section to map is the whole allocation,
 * read off through that local: data[0:n]. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int rows = 512, cols = 16;
  const int n = rows * cols;
  const size_t bytes = n * sizeof(float);
  int *label = (int *)malloc(rows * sizeof(int));
  float *data = (float *)malloc(bytes);
  for (int i = 0; i < rows; i++)
    label[i] = (i * 7) % cols;
  for (int i = 0; i < n; i++)
    data[i] = (float)((i * 13) % 32);
  int count = 0;
#pragma omp target teams distribute parallel for reduction(+ : count)
  for (int row = 0; row < rows; row++) {
    const float picked = data[row * cols + label[row]];
    int above = 0;
    for (int col = 0; col < cols; col++)
      if (data[row * cols + col] > picked)
        above++;
    if (above < 4)
      count++;
  }
  printf("%d\n", count);
  free(label);
  free(data);
  return 0;
}
