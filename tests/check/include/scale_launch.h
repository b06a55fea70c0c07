// A kernel template in a header and a template that calls it (HeCBench's expdist keeps its
// kernels so): omplens does not analyse header bodies with OpenMP directives.
template <typename T, int K>
void scale_launch(const T *in, T *out, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    out[i] = in[i] * K;
}

template <typename T>
void scale_twice(const T *in, T *out, int n) {
  scale_launch<T, 2>(in, out, n);
}
