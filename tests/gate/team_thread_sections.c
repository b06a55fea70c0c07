/* A kernel in the CUDA style: each team and thread computes its own index from
 * omp_get_team_num() and omp_get_thread_num(). A section in those terms would be evaluated on
 * the host at the map clause (team 0, thread 0: one element); the sections come from the
 * allocations instead: in[0:T * B], out[0:T * B]. (Not an oracle program: how many teams
 * and threads host offloading runs is the runtime's choice.) */
#include <stdio.h>
#include <stdlib.h>

#define T 16
#define B 64

#ifdef _OPENMP
#include <omp.h>
#else
/* The sequential build (the oracle's reference) runs the kernel body once per team and
 * thread, in order. */
static int team_, thread_;
static int omp_get_team_num(void) { return team_; }
static int omp_get_thread_num(void) { return thread_; }
#endif

int main(void) {
  float *in = (float *)malloc(T * B * sizeof(float));
  float *out = (float *)malloc(T * B * sizeof(float));
  for (int i = 0; i < T * B; i++)
    in[i] = (float)(i % 10);
#ifndef _OPENMP
  for (team_ = 0; team_ < T; team_++)
    for (thread_ = 0; thread_ < B; thread_++)
#endif
#pragma omp target teams num_teams(T) thread_limit(B)
  {
#pragma omp parallel num_threads(B)
    {
      int idx = omp_get_team_num() * B + omp_get_thread_num();
      out[idx] = 2.0f * in[idx];
    }
  }
  double sum = 0;
  for (int i = 0; i < T * B; i++)
    sum += out[i];
  printf("%.1f\n", sum);
  free(in);
  free(out);
  return 0;
}
