#!/usr/bin/env python3
"""Generate a large, deterministic C++ OpenMP-offload program for benchmarking omplens.

Usage: python3 bench/gen_large.py OUT.cpp [--lines N]

The output is realistic HPC-style code: many small modules (one C++ namespace
each) built from a handful of shapes -- classes with fixed and heap member
arrays, free functions with pointer parameters, global arrays with
`declare target` and `target update`, time-step loops under `target data`,
structs with pointer members, function/class templates instantiated a few
times, nested loops with collapse, switch-selected kernels and reductions.
Every kernel body is different (constants and expressions are derived from a
private deterministic PRNG, so the same arguments always give the same file).

The program compiles with `clang++-19 -fsyntax-only -fopenmp -std=c++17`.
Only the Python standard library is used.
"""

import argparse
import sys

DEFAULT_LINES = 20000


class Rng:
    """Small 64-bit LCG so the output never depends on the Python version."""

    def __init__(self, seed):
        self.state = (seed * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return self.state >> 33

    def below(self, n):
        return self.next() % n

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def const(self):
        # a "nice" floating constant such as 0.375 or 2.5
        return "%d.%s" % (self.below(4), self.choice(["0", "125", "25", "375", "5", "625", "75", "875"]))


class Out:
    def __init__(self):
        self.lines = []
        self.kernels = 0
        self.seen = set()
        self.fallback = 0

    def w(self, text=""):
        for line in text.split("\n"):
            self.lines.append(line)

    def kernel(self):
        self.kernels += 1


def expr(rng, arrays, idx="i", depth=0):
    """A small arithmetic expression over arrays[idx] and constants."""
    if depth > 1 or rng.below(3) == 0:
        kind = rng.below(3)
        if kind == 0:
            return "%s[%s]" % (rng.choice(arrays), idx)
        if kind == 1:
            return rng.const()
        return "%s[%s] * %s" % (rng.choice(arrays), idx, rng.const())
    op = rng.choice(["+", "-", "*", "+", "+"])
    left = expr(rng, arrays, idx, depth + 1)
    right = expr(rng, arrays, idx, depth + 1)
    return "(%s %s %s)" % (left, op, right)


def uexpr(o, rng, arrays, idx="i"):
    """Like expr(), but never returns an expression used before in this file.

    Every kernel body contains at least one uexpr(), so no two kernels are alike."""
    for _ in range(200):
        e = expr(rng, arrays, idx)
        if "[" in e and e not in o.seen:
            o.seen.add(e)
            return e
    o.fallback += 1
    e = "(%s + %d.0 * %s[%s])" % (expr(rng, arrays, idx), o.fallback, arrays[0], idx)
    o.seen.add(e)
    return e


def update_stmt(o, rng, target, sources, idx="i"):
    return "%s[%s] = %s;" % (target, idx, uexpr(o, rng, sources, idx))


# ---------------------------------------------------------------------------
# module shapes; each writes one namespace and returns the name of its driver
# ---------------------------------------------------------------------------

def mod_class(o, rng, m):
    n = 64 + 16 * rng.below(8)
    nm = "Field%d" % m
    o.w("class %s {" % nm)
    o.w("public:")
    o.w("  static const int kN = %d;" % n)
    o.w("  explicit %s(int n) : n_(n), heap_(new double[n]) {" % nm)
    o.w("    for (int i = 0; i < kN; i++)")
    o.w("      fixed_[i] = double(i %% %d);" % (3 + rng.below(7)))
    o.w("    for (int i = 0; i < n_; i++)")
    o.w("      heap_[i] = %s;" % rng.const())
    o.w("  }")
    o.w("  ~%s() { delete[] heap_; }" % nm)
    o.w("  %s(const %s &) = delete;" % (nm, nm))
    o.w("  %s &operator=(const %s &) = delete;" % (nm, nm))
    o.w("")
    o.w("  void relax_fixed() {")
    o.w("#pragma omp target teams distribute parallel for map(tofrom: this->fixed_[0:kN])")
    o.w("    for (int i = 0; i < kN; i++)")
    o.w("      this->fixed_[i] = %s;" % uexpr(o, rng, ["this->fixed_"]))
    o.kernel()
    o.w("  }")
    o.w("")
    o.w("  void mix_heap(double w) {")
    o.w("    double *h = heap_;")
    o.w("    int n = n_ < kN ? n_ : kN;")
    o.w("#pragma omp target teams distribute parallel for map(tofrom: h[0:n]) map(to: this->fixed_[0:kN])")
    o.w("    for (int i = 0; i < n; i++)")
    o.w("      h[i] = w * %s;" % uexpr(o, rng, ["h", "fixed_"]))
    o.kernel()
    o.w("  }")
    o.w("")
    red = rng.choice(["+", "max", "min"])
    o.w("  double reduce() const {")
    o.w("    const double *h = heap_;")
    o.w("    int n = n_;")
    init = {"+": "0.0", "max": "-1.0e30", "min": "1.0e30"}[red]
    o.w("    double r = %s;" % init)
    o.w("#pragma omp target teams distribute parallel for map(to: h[0:n]) reduction(%s: r)" % red)
    o.w("    for (int i = 0; i < n; i++) {")
    if red == "+":
        o.w("      r += %s;" % uexpr(o, rng, ["h"]))
    elif red == "max":
        o.w("      double v = %s;" % uexpr(o, rng, ["h"]))
        o.w("      r = v > r ? v : r;")
    else:
        o.w("      double v = %s;" % uexpr(o, rng, ["h"]))
        o.w("      r = v < r ? v : r;")
    o.w("    }")
    o.kernel()
    o.w("    return r;")
    o.w("  }")
    o.w("")
    o.w("private:")
    o.w("  int n_;")
    o.w("  double *heap_;")
    o.w("  double fixed_[kN];")
    o.w("};")
    o.w("")
    o.w("double run() {")
    o.w("  %s f(%d);" % (nm, n - 8 * rng.below(4)))
    steps = 2 + rng.below(4)
    o.w("  for (int step = 0; step < %d; step++) {" % steps)
    o.w("    f.relax_fixed();")
    o.w("    f.mix_heap(%s);" % rng.const())
    o.w("  }")
    o.w("  return f.reduce();")
    o.w("}")


def mod_pointer_funcs(o, rng, m):
    nfun = 3 + rng.below(3)
    for k in range(nfun):
        o.w("void kernel_%d(double *out, const double *a, const double *b, int n) {" % k)
        clause = rng.choice([
            "map(to: a[0:n], b[0:n]) map(from: out[0:n])",
            "map(to: a[0:n]) map(to: b[0:n]) map(tofrom: out[0:n])",
            "map(present, to: a[0:n], b[0:n]) map(present, from: out[0:n])",
        ])
        if "present" in clause:
            o.w("#pragma omp target data map(to: a[0:n], b[0:n]) map(from: out[0:n])")
            o.w("  {")
            o.w("#pragma omp target teams distribute parallel for %s" % clause)
            o.w("  for (int i = 0; i < n; i++)")
            o.w("    " + update_stmt(o, rng, "out", ["a", "b"]))
            o.w("  }")
        else:
            o.w("#pragma omp target teams distribute parallel for %s" % clause)
            o.w("  for (int i = 0; i < n; i++)")
            o.w("    " + update_stmt(o, rng, "out", ["a", "b"]))
        o.kernel()
        o.w("}")
        o.w("")
    n = 100 + rng.below(400)
    o.w("double run() {")
    o.w("  int n = %d;" % n)
    o.w("  double *a = static_cast<double *>(std::malloc(sizeof(double) * n));")
    o.w("  double *b = static_cast<double *>(std::malloc(sizeof(double) * n));")
    o.w("  double *c = static_cast<double *>(std::malloc(sizeof(double) * n));")
    o.w("  for (int i = 0; i < n; i++) {")
    o.w("    a[i] = double(i %% %d);" % (5 + rng.below(9)))
    o.w("    b[i] = %s;" % rng.const())
    o.w("    c[i] = 0.0;")
    o.w("  }")
    for k in range(nfun):
        args = rng.choice(["c, a, b", "a, c, b", "b, a, c", "c, b, a"])
        o.w("  kernel_%d(%s, n);" % (k, args))
    o.w("  double s = 0.0;")
    o.w("  for (int i = 0; i < n; i++)")
    o.w("    s += a[i] + b[i] + c[i];")
    o.w("  std::free(a);")
    o.w("  std::free(b);")
    o.w("  std::free(c);")
    o.w("  return s;")
    o.w("}")


def mod_globals(o, rng, m):
    n = 128 + 32 * rng.below(6)
    o.w("const int kN = %d;" % n)
    o.w("double g_u[kN], g_v[kN], g_w[kN];")
    o.w("double g_scale = %s;" % rng.const())
    o.w("#pragma omp declare target(g_u, g_v, g_scale)")
    o.w("")
    o.w("void init() {")
    o.w("  for (int i = 0; i < kN; i++) {")
    o.w("    g_u[i] = double(i %% %d);" % (3 + rng.below(11)))
    o.w("    g_v[i] = %s;" % rng.const())
    o.w("    g_w[i] = 0.0;")
    o.w("  }")
    o.w("#pragma omp target update to(g_u, g_v, g_scale)")
    o.w("}")
    o.w("")
    o.w("void advance() {")
    o.w("#pragma omp target teams distribute parallel for")
    o.w("  for (int i = 0; i < kN; i++)")
    o.w("    g_u[i] = g_scale * %s;" % uexpr(o, rng, ["g_u", "g_v"]))
    o.kernel()
    o.w("}")
    o.w("")
    o.w("void project() {")
    o.w("#pragma omp target teams distribute parallel for map(from: g_w)")
    o.w("  for (int i = 0; i < kN; i++)")
    o.w("    " + update_stmt(o, rng, "g_w", ["g_u", "g_v"]))
    o.kernel()
    o.w("}")
    o.w("")
    o.w("double run() {")
    o.w("  init();")
    o.w("  for (int it = 0; it < %d; it++) {" % (2 + rng.below(5)))
    o.w("    advance();")
    o.w("    if (it %% %d == 0) {" % (2 + rng.below(2)))
    o.w("#pragma omp target update from(g_u[0:kN / 2])")
    o.w("      g_u[0] = g_u[1];")
    o.w("#pragma omp target update to(g_u[0:1])")
    o.w("    }")
    o.w("  }")
    o.w("  project();")
    o.w("  double s = 0.0;")
    o.w("  for (int i = 0; i < kN; i++)")
    o.w("    s += g_w[i];")
    o.w("  return s;")
    o.w("}")


def mod_timestep(o, rng, m):
    nx = 16 + 8 * rng.below(4)
    ny = 16 + 8 * rng.below(4)
    o.w("double run() {")
    o.w("  const int nx = %d, ny = %d, n = nx * ny;" % (nx, ny))
    o.w("  double *t = new double[n];")
    o.w("  double *tn = new double[n];")
    o.w("  double *src = new double[n];")
    o.w("  for (int k = 0; k < n; k++) {")
    o.w("    t[k] = double(k %% %d);" % (4 + rng.below(12)))
    o.w("    tn[k] = 0.0;")
    o.w("    src[k] = %s;" % rng.const())
    o.w("  }")
    o.w("  double hist[8] = {0, 0, 0, 0, 0, 0, 0, 0};")
    o.w("#pragma omp target data map(tofrom: t[0:n]) map(alloc: tn[0:n]) map(to: src[0:n])")
    o.w("  {")
    steps = 4 + rng.below(8)
    o.w("    for (int step = 0; step < %d; step++) {" % steps)
    o.w("#pragma omp target teams distribute parallel for collapse(2)")
    o.w("      for (int i = 1; i < ny - 1; i++)")
    o.w("        for (int j = 1; j < nx - 1; j++) {")
    o.w("          int k = i * nx + j;")
    c1, c2 = rng.const(), rng.const()
    o.w("          tn[k] = t[k] + %s * (t[k - 1] + t[k + 1] + t[k - nx] + t[k + nx] - 4.0 * t[k]) + %s * %s;"
        % (c1, c2, uexpr(o, rng, ["src", "t"], "k")))
    o.w("        }")
    o.kernel()
    o.w("#pragma omp target teams distribute parallel for")
    o.w("      for (int k = nx; k < n - nx; k++)")
    o.w("        t[k] = 0.5 * tn[k] + 0.5 * %s;" % uexpr(o, rng, ["tn", "t"], "k"))
    o.kernel()
    o.w("      if (step %% %d == 0) {" % (2 + rng.below(3)))
    o.w("#pragma omp target update from(t[0:n])")
    o.w("        double s = 0.0;")
    o.w("        int cnt = 0;")
    o.w("        while (cnt < n) {")
    o.w("          s += t[cnt];")
    o.w("          cnt += %d;" % (1 + rng.below(3)))
    o.w("        }")
    o.w("        hist[step % 8] = s;")
    o.w("      }")
    o.w("    }")
    o.w("  }")
    o.w("  double r = hist[0] + hist[1];")
    o.w("  delete[] t;")
    o.w("  delete[] tn;")
    o.w("  delete[] src;")
    o.w("  return r;")
    o.w("}")


def mod_struct(o, rng, m):
    o.w("struct Mesh {")
    o.w("  int n;")
    o.w("  double *x;")
    o.w("  double *y;")
    o.w("  double weight;")
    o.w("};")
    o.w("")
    o.w("static void smooth(Mesh *p) {")
    o.w("#pragma omp target teams distribute parallel for map(to: p->x[0:p->n], p->n) map(tofrom: p->y[0:p->n])")
    o.w("  for (int i = 0; i < p->n; i++)")
    o.w("    p->y[i] = %s;" % uexpr(o, rng, ["p->x", "p->y"]))
    o.kernel()
    o.w("}")
    o.w("")
    o.w("static void weigh(Mesh &s) {")
    o.w("  double w = s.weight;")
    o.w("#pragma omp target teams distribute parallel for map(tofrom: s.x[0:s.n]) map(to: s.n) firstprivate(w)")
    o.w("  for (int i = 0; i < s.n; i++)")
    o.w("    s.x[i] = w * %s;" % uexpr(o, rng, ["s.x"]))
    o.kernel()
    o.w("}")
    o.w("")
    o.w("double run() {")
    o.w("  Mesh s;")
    o.w("  s.n = %d;" % (50 + rng.below(200)))
    o.w("  s.weight = %s;" % rng.const())
    o.w("  s.x = new double[s.n];")
    o.w("  s.y = new double[s.n];")
    o.w("  for (int i = 0; i < s.n; i++) {")
    o.w("    s.x[i] = double(i %% %d);" % (2 + rng.below(9)))
    o.w("    s.y[i] = 0.0;")
    o.w("  }")
    o.w("  int rounds = %d;" % (1 + rng.below(4)))
    o.w("  do {")
    o.w("    smooth(&s);")
    o.w("    weigh(s);")
    o.w("  } while (--rounds > 0);")
    o.w("  double r = s.y[0] + s.x[s.n - 1];")
    o.w("  delete[] s.x;")
    o.w("  delete[] s.y;")
    o.w("  return r;")
    o.w("}")


def mod_templates(o, rng, m):
    o.w("template <typename T>")
    o.w("void blend(T *dst, const T *src, T alpha, int n) {")
    o.w("#pragma omp target teams distribute parallel for simd map(to: src[0:n]) map(tofrom: dst[0:n])")
    o.w("  for (int i = 0; i < n; i++)")
    o.w("    dst[i] = alpha * dst[i] + T(%s);" % uexpr(o, rng, ["src", "dst"]))
    o.kernel()
    o.w("}")
    o.w("")
    o.w("template <typename T, int N>")
    o.w("struct Stack {")
    o.w("  T v[N];")
    o.w("  void shift(T d) {")
    o.w("#pragma omp target map(tofrom: v)")
    o.w("    for (int i = 0; i < N; i++)")
    o.w("      v[i] = T(%s) + d;" % uexpr(o, rng, ["v"]))
    o.kernel()
    o.w("  }")
    o.w("};")
    o.w("")
    n = 32 + 8 * rng.below(8)
    o.w("double run() {")
    o.w("  const int n = %d;" % n)
    o.w("  float fa[n], fb[n];")
    o.w("  double da[n], db[n];")
    o.w("  for (int i = 0; i < n; i++) {")
    o.w("    fa[i] = float(i %% %d);" % (3 + rng.below(5)))
    o.w("    fb[i] = 1.0f;")
    o.w("    da[i] = double(i %% %d);" % (3 + rng.below(5)))
    o.w("    db[i] = 2.0;")
    o.w("  }")
    o.w("  blend<float>(fa, fb, %sf, n);" % rng.const())
    o.w("  blend(da, db, %s, n);" % rng.const())
    o.w("  Stack<int, %d> si;" % (8 + rng.below(8)))
    o.w("  Stack<double, %d> sd;" % (8 + rng.below(8)))
    o.w("  for (int i = 0; i < %d; i++) {" % 8)
    o.w("    si.v[i] = i;")
    o.w("    sd.v[i] = 0.5 * i;")
    o.w("  }")
    o.w("  si.shift(%d);" % rng.below(5))
    o.w("  sd.shift(%s);" % rng.const())
    o.w("  return double(fa[1]) + da[2] + double(si.v[3]) + sd.v[4];")
    o.w("}")


def mod_switch(o, rng, m):
    nx = 8 + 4 * rng.below(4)
    ny = 8 + 4 * rng.below(4)
    nz = 4 + 2 * rng.below(3)
    o.w("const int NX = %d, NY = %d, NZ = %d;" % (nx, ny, nz))
    o.w("")
    o.w("void apply(double (&v)[NX][NY][NZ], int mode) {")
    o.w("  switch (mode) {")
    o.w("  case 0:")
    o.w("#pragma omp target teams distribute parallel for collapse(3) map(tofrom: v)")
    o.w("    for (int i = 0; i < NX; i++)")
    o.w("      for (int j = 0; j < NY; j++)")
    o.w("        for (int k = 0; k < NZ; k++)")
    o.w("          v[i][j][k] = %s + double(i - j + k);" % uexpr(o, rng, ["v"], "i][j][k"))
    o.kernel()
    o.w("    // fallthrough")
    o.w("    [[fallthrough]];")
    o.w("  case 1:")
    o.w("#pragma omp target teams distribute parallel for collapse(2) map(tofrom: v[0:NX][0:NY][0:NZ]) schedule(static, %d)" % (1 + rng.below(8)))
    o.w("    for (int i = 0; i < NX; i++)")
    o.w("      for (int j = 0; j < NY; j++) {")
    o.w("        double acc = 0.0;")
    o.w("        for (int k = 0; k < NZ; k++)")
    o.w("          acc += v[i][j][k];")
    o.w("        v[i][j][0] = acc * %s + %s;" % (rng.const(), uexpr(o, rng, ["v"], "i][j][1")))
    o.w("      }")
    o.kernel()
    o.w("    break;")
    o.w("  case 2: {")
    o.w("    double mx = -1.0e30;")
    o.w("#pragma omp target teams distribute parallel for collapse(3) map(to: v) reduction(max: mx)")
    o.w("    for (int i = 0; i < NX; i++)")
    o.w("      for (int j = 0; j < NY; j++)")
    o.w("        for (int k = 0; k < NZ; k++) {")
    o.w("          double t = %s;" % uexpr(o, rng, ["v"], "i][j][k"))
    o.w("          mx = t > mx ? t : mx;")
    o.w("        }")
    o.kernel()
    o.w("    v[0][0][0] = mx;")
    o.w("    break;")
    o.w("  }")
    o.w("  default:")
    o.w("    break;")
    o.w("  }")
    o.w("}")
    o.w("")
    o.w("double run() {")
    o.w("  static double v[NX][NY][NZ];")
    o.w("  for (int i = 0; i < NX; i++)")
    o.w("    for (int j = 0; j < NY; j++)")
    o.w("      for (int k = 0; k < NZ; k++)")
    o.w("        v[i][j][k] = double((i + j * k) %% %d);" % (3 + rng.below(9)))
    o.w("  for (int mode = 0; mode < 4; mode++) {")
    o.w("    if (mode == %d)" % (1 + rng.below(3)))
    o.w("      continue;")
    o.w("    apply(v, mode);")
    o.w("  }")
    o.w("  return v[1][1][1];")
    o.w("}")


def mod_reduce_loop(o, rng, m):
    n = 200 + rng.below(300)
    o.w("double run() {")
    o.w("  const int n = %d;" % n)
    o.w("  double *x = new double[n];")
    o.w("  double *r = new double[n];")
    o.w("  for (int i = 0; i < n; i++) {")
    o.w("    x[i] = double(i %% %d) * %s;" % (2 + rng.below(13), rng.const()))
    o.w("    r[i] = 0.0;")
    o.w("  }")
    o.w("  double norm = 1.0;")
    o.w("  int it = 0;")
    o.w("#pragma omp target enter data map(to: x[0:n]) map(alloc: r[0:n])")
    o.w("  while (norm > 1.0e-3 && it < %d) {" % (5 + rng.below(20)))
    o.w("#pragma omp target teams distribute parallel for")
    o.w("    for (int i = 0; i < n; i++)")
    o.w("      r[i] = %s;" % uexpr(o, rng, ["x"]))
    o.kernel()
    o.w("    norm = 0.0;")
    o.w("#pragma omp target teams distribute parallel for reduction(+: norm)")
    o.w("    for (int i = 0; i < n; i++) {")
    o.w("      x[i] = x[i] - 0.125 * %s;" % uexpr(o, rng, ["r", "x"]))
    o.w("      norm += r[i] * r[i];")
    o.w("    }")
    o.kernel()
    o.w("    it++;")
    o.w("  }")
    o.w("#pragma omp target exit data map(from: x[0:n]) map(delete: r[0:n])")
    o.w("  double s = x[0] + double(it);")
    o.w("  delete[] x;")
    o.w("  delete[] r;")
    o.w("  return s;")
    o.w("}")


SHAPES = [mod_class, mod_pointer_funcs, mod_globals, mod_timestep, mod_struct,
          mod_templates, mod_switch, mod_reduce_loop]


def generate(min_lines):
    o = Out()
    o.w("// Generated by bench/gen_large.py -- deterministic synthetic OpenMP offload code for benchmarks.")
    o.w("// Do not edit by hand.")
    o.w("#include <cstdio>")
    o.w("#include <cstdlib>")
    o.w("")
    m = 0
    # reserve room for main(): ~3 lines per module + 10
    while len(o.lines) + 3 * m + 10 < min_lines:
        rng = Rng(1000003 * (m + 1))
        shape = SHAPES[m % len(SHAPES)]
        o.w("namespace m%d {" % m)
        o.w("// shape: %s" % shape.__name__[4:])
        shape(o, rng, m)
        o.w("} // namespace m%d" % m)
        o.w("")
        m += 1
    o.w("int main() {")
    o.w("  double total = 0.0;")
    for k in range(m):
        o.w("  total += m%d::run();" % k)
        o.w("  if (total != total)")
        o.w("    return 1;")
    o.w("  std::printf(\"total=%.6e\\n\", total);")
    o.w("  return 0;")
    o.w("}")
    return o, m


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", help="output C++ file")
    ap.add_argument("--lines", type=int, default=DEFAULT_LINES,
                    help="minimum number of lines (default %d)" % DEFAULT_LINES)
    args = ap.parse_args(argv)
    o, modules = generate(args.lines)
    text = "\n".join(o.lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    sys.stderr.write("wrote %s: %d lines, %d modules, %d kernels (%d distinct kernel expressions)\n"
                     % (args.out, len(o.lines), modules, o.kernels, len(o.seen)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
