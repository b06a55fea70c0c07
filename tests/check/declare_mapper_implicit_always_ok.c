// The implicit map of a struct uses its type's default mapper: here `always, from`, so the
// kernel's results come back at its end although `target enter data` keeps the struct on
// the device (the copy back of a plain implicit map would wait for the exit).
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int len;
  int *data;
} Vec;

#pragma omp declare mapper(Vec v) map(always, from: v, v.len, v.data[0:v.len])

int main(void) {
  Vec s;
  s.len = 100;
  s.data = (int *)calloc(s.len, sizeof(int));
#pragma omp target enter data map(to: s.len, s.data[0:s.len])
#pragma omp target
  {
    for (int i = 0; i < s.len; i++)
      s.data[i] = 3 * i;
  }
#pragma omp target exit data map(delete: s.len, s.data[0:s.len])
  long sum = 0;
  for (int i = 0; i < s.len; i++)
    sum += s.data[i];
  printf("sum %ld\n", sum);
  free(s.data);
  return 0;
}
