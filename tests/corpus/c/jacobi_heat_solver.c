// Exercises a realistic 2-D Jacobi heat solver: structs with pointer members, target data over the whole solve, periodic target update, max-reduction convergence, boundary kernels and a checkpoint path.
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int nx, ny;
  double *t;    /* current temperature, nx*ny */
  double *tnew; /* next temperature */
  double *src;  /* heat sources */
} Grid;

typedef struct {
  int max_iters;
  int check_every;
  double tol;
  double alpha;
} Params;

typedef struct {
  int iters;
  double last_delta;
  double checkpoints[16];
  int ncheck;
} Report;

#define IDX(g, i, j) ((i) * (g)->nx + (j))

static void grid_alloc(Grid *g, int nx, int ny) {
  g->nx = nx;
  g->ny = ny;
  g->t = (double *)calloc((size_t)nx * ny, sizeof(double));
  g->tnew = (double *)calloc((size_t)nx * ny, sizeof(double));
  g->src = (double *)calloc((size_t)nx * ny, sizeof(double));
}

static void grid_free(Grid *g) {
  free(g->t);
  free(g->tnew);
  free(g->src);
}

static void place_sources(Grid *g) {
  for (int i = 0; i < g->ny; i++)
    for (int j = 0; j < g->nx; j++) {
      int hot = (i > g->ny / 3 && i < g->ny / 2 && j > g->nx / 4 && j < g->nx / 3);
      g->src[IDX(g, i, j)] = hot ? 1.0 : 0.0;
    }
}

/* fixed boundary: top edge hot, the others cold */
static void apply_boundary(double *t, int nx, int ny) {
#pragma omp target teams distribute parallel for map(present, tofrom: t[0:nx*ny])
  for (int j = 0; j < nx; j++) {
    t[j] = 10.0;
    t[(ny - 1) * nx + j] = 0.0;
  }
#pragma omp target teams distribute parallel for map(present, tofrom: t[0:nx*ny])
  for (int i = 0; i < ny; i++) {
    t[i * nx] = 0.0;
    t[i * nx + nx - 1] = 0.0;
  }
}

static double sweep(const double *t, double *tnew, const double *src, int nx, int ny, double alpha) {
  double delta = 0.0;
#pragma omp target teams distribute parallel for collapse(2) reduction(max: delta) \
    map(present, to: t[0:nx*ny], src[0:nx*ny]) map(present, from: tnew[0:nx*ny])
  for (int i = 1; i < ny - 1; i++)
    for (int j = 1; j < nx - 1; j++) {
      int k = i * nx + j;
      double lap = t[k - 1] + t[k + 1] + t[k - nx] + t[k + nx] - 4.0 * t[k];
      double v = t[k] + alpha * lap + 0.01 * src[k];
      double d = v > t[k] ? v - t[k] : t[k] - v;
      tnew[k] = v;
      delta = d > delta ? d : delta;
    }
  return delta;
}

static void copy_interior(double *dst, const double *src, int nx, int ny) {
#pragma omp target teams distribute parallel for collapse(2) map(present, to: src[0:nx*ny]) map(present, tofrom: dst[0:nx*ny])
  for (int i = 1; i < ny - 1; i++)
    for (int j = 1; j < nx - 1; j++)
      dst[i * nx + j] = src[i * nx + j];
}

static double host_mean(const double *t, int n) {
  double s = 0.0;
  for (int k = 0; k < n; k++)
    s += t[k];
  return s / (double)n;
}

static void solve(Grid *g, const Params *p, Report *r) {
  int nx = g->nx, ny = g->ny, n = nx * ny;
  double *t = g->t, *tnew = g->tnew, *src = g->src;
  r->iters = 0;
  r->ncheck = 0;
  r->last_delta = 0.0;

#pragma omp target data map(tofrom: t[0:n]) map(alloc: tnew[0:n]) map(to: src[0:n])
  {
    apply_boundary(t, nx, ny);
    /* tnew needs the boundary too */
    copy_interior(tnew, t, nx, ny);
#pragma omp target teams distribute parallel for
    for (int k = 0; k < n; k++)
      tnew[k] = t[k];

    for (int it = 1; it <= p->max_iters; it++) {
      double delta = sweep(t, tnew, src, nx, ny, p->alpha);
      copy_interior(t, tnew, nx, ny);
      r->iters = it;
      r->last_delta = delta;
      if (it % p->check_every == 0) {
#pragma omp target update from(t[0:n])
        if (r->ncheck < 16)
          r->checkpoints[r->ncheck++] = host_mean(t, n);
      }
      if (delta < p->tol)
        break;
    }
  }
}

int main(void) {
  Grid g;
  Params p = {400, 50, 1.0e-4, 0.2};
  Report r;
  grid_alloc(&g, 48, 40);
  place_sources(&g);
  solve(&g, &p, &r);

  printf("iterations=%d last_delta=%.6e\n", r.iters, r.last_delta);
  for (int c = 0; c < r.ncheck; c++)
    printf("checkpoint %d mean=%.9f\n", c, r.checkpoints[c]);
  printf("t[center]=%.9f t[near top]=%.9f\n", g.t[IDX(&g, g.ny / 2, g.nx / 2)], g.t[IDX(&g, 1, g.nx / 2)]);
  grid_free(&g);
  return 0;
}
