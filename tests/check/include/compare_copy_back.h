/* Result checks in a project header (HeCBench's permute keeps its validate_result so): one
 * template copies the device's results back itself before it reads them, the other reads
 * the host's copy as it is. */
#ifndef COMPARE_COPY_BACK_H
#define COMPARE_COPY_BACK_H

#include <cstddef>
#include <cstdio>

template <class Got, class Want>
int mismatches_after_copy_back(Got *got, const Want *want, std::size_t n) {
#pragma omp target update from(got[0:n])
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (got[i] != want[i])
      bad++;
  return bad;
}

template <class Got, class Want>
int mismatches_on_host(const Got *got, const Want *want, std::size_t n) {
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (got[i] != want[i])
      bad++;
  return bad;
}

#endif
