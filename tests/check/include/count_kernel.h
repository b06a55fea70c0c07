// A whole kernel included inside a function body (HeCBench's hybridsort and sort): it
// counts, per element of `in`, how many pivots are below it. The directive is the header's.
#pragma omp target teams distribute parallel for
for (int i = 0; i < n; i++) {
  int c = 0;
  for (int k = 0; k < NPIV; k++)
    c += in[i] > piv[k];
  count[i] = c;
}
