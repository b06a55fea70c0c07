/* CUDA-style kernels (HeCBench's and Rodinia's ports): each team and thread finds its data by
 * its numbers, `omp_get_team_num()` and `omp_get_thread_num()`, which the launch bounds by
 * `num_teams` and `num_threads` (or `thread_limit`). A map clause runs on the host, where both
 * numbers are 0: the section must be the union over every team and thread of the launch, here
 * `in[1:BS * NB]`, `w[0:BS]` and `out[0:NB]`, since the data comes from a function whose
 * allocation omplens does not read. The second launch has more threads than elements, and the
 * kernel's test `i < N` keeps them in: that test bounds the section (`y[0:N]`), not the
 * launch, which would reach past the allocation.
 *
 * Built without OpenMP (the oracle's reference), the loops in the kernels run every team and
 * thread in turn; with it, the pragmas launch them. Host offloading forms as many teams and
 * threads as the machine has cores unless told otherwise, so the oracle runs it with
 * oracle-env: KMP_TEAMS_THREAD_LIMIT=1024 OMP_NUM_THREADS=8
 */
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#define TEAM omp_get_team_num()
#define THREAD omp_get_thread_num()
#else
#define TEAM team
#define THREAD thread
#endif
#define BS 8
#define NB 16
#define N 100

static float *make(int n) {
  float *p = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    p[i] = (float)(i % 7);
  return p;
}

int main(void) {
  float *in = make(BS * NB + 1);
  float *w = make(BS);
  float *out = make(NB);
  float *y = make(N);
#pragma omp target data map(to: in[1:BS * NB], w[0:BS]) map(tofrom: out[0:NB], y[0:N])
  {
#pragma omp target teams num_teams(NB) thread_limit(BS)
#pragma omp parallel num_threads(BS)
    {
#ifndef _OPENMP
      for (int team = 0; team < NB; team++)
        for (int thread = 0; thread < BS; thread++)
#endif
        {
          int b = TEAM;
          int t = THREAD;
          if (t == 0)
            out[b] = 0;
#pragma omp barrier
#pragma omp atomic
          out[b] += in[BS * b + t + 1] * w[t];
        }
    }
#pragma omp target teams num_teams((N + BS - 1) / BS) thread_limit(BS)
#pragma omp parallel num_threads(BS)
    {
#ifndef _OPENMP
      for (int team = 0; team < (N + BS - 1) / BS; team++)
        for (int thread = 0; thread < BS; thread++)
#endif
        {
          int i = TEAM * BS + THREAD;
          if (i < N)
            y[i] = 2 * y[i] + w[THREAD];
        }
    }
  }
  float s = 0;
  for (int b = 0; b < NB; b++)
    s += out[b] * (b + 1);
  for (int i = 0; i < N; i++)
    s += y[i];
  printf("%.1f\n", s);
  free(in);
  free(w);
  free(out);
  free(y);
  return 0;
}
