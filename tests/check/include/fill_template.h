/* A kernel launcher template in a project header (HeCBench's lda keeps its EstepKernel so):
 * omplens does not analyse a header body with OpenMP directives. */
#ifndef FILL_TEMPLATE_H
#define FILL_TEMPLATE_H

template <int VALUE>
void fill_on_device(float *out, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    out[i] = VALUE + 0.25f * (i % 4);
}

#endif
