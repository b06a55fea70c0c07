//! Symbolic array sections from loop bounds, allocation lengths, and the polynomials under
//! them, on small programs.

mod common;
use common::lower;
use omplens_analysis::ir::cfg::{self, Exec};
use omplens_analysis::ir::{FuncId, Module, StmtId, StmtKind, VarId};
use omplens_analysis::semantics::sections::{
    accessed_section, accessed_section_why, allocation_length, copy_root, Section,
};
use omplens_analysis::semantics::symbolic::Poly;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn func(m: &Module, name: &str) -> FuncId {
    FuncId(
        m.functions
            .iter()
            .position(|f| f.name == name && f.has_body)
            .unwrap_or_else(|| panic!("no function {name}")) as u32,
    )
}

fn var(m: &Module, f: FuncId, name: &str) -> VarId {
    let i = m
        .vars
        .iter()
        .position(|v| v.name == name && (v.function == Some(f) || v.function.is_none()))
        .unwrap_or_else(|| panic!("no variable {name}"));
    VarId(i as u32)
}

/// The offload kernel statements of `f`, in source order.
fn kernels(m: &Module, f: FuncId) -> Vec<StmtId> {
    let func = m.function(f);
    func.stmts
        .iter()
        .enumerate()
        .filter(|(_, s)| match s.kind {
            StmtKind::Omp { directive, body } => {
                body.is_some() && m.directive(directive).directive.kind.is_offload_kernel()
            }
            _ => false,
        })
        .map(|(i, _)| StmtId(i as u32))
        .collect()
}

/// The section of `v` accessed in the statements chosen by `pick` from the kernels of `f`.
fn section_in(m: &Module, f: &str, v: &str, stmts: &[StmtId]) -> Option<String> {
    let fid = func(m, f);
    let g = cfg::build(m, fid, Exec::Host);
    accessed_section(m, fid, &g, var(m, fid, v), stmts).map(|s| s.to_string())
}

/// The section of `v` accessed by all kernels of `f`.
fn section(m: &Module, f: &str, v: &str) -> Option<String> {
    let ks = kernels(m, func(m, f));
    assert!(!ks.is_empty(), "no kernel in {f}");
    section_in(m, f, v, &ks)
}

fn alloc(m: &Module, f: &str, v: &str) -> Option<String> {
    let fid = func(m, f);
    allocation_length(m, fid, var(m, fid, v)).map(|p| p.to_string())
}

fn c(src: &str) -> Module {
    lower("s.c", src)
}

#[test]
fn one_dimensional_loop() {
    let m = c("void f(double *a, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) a[i] = 1;\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n"));
}

#[test]
fn stencil_reads_and_writes() {
    let m = c("void f(const double *a, double *b, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 1; i < n - 1; i++) b[i] = a[i - 1] + a[i + 1];\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n"));
    assert_eq!(section(&m, "f", "b").as_deref(), Some("1:n - 2"));
}

#[test]
fn inclusive_bound() {
    let m = c("void f(double *a, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i <= n; ++i) a[i] = 1;\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n + 1"));
}

#[test]
fn reversed_comparison_not_equal_and_assignment_init() {
    let m = c("void f(double *a, double *b, double *c, int n) {\n\
               int i;\n\
               #pragma omp target\n\
               {\n\
                 for (i = 0; n > i; i += 1) a[i] = 1;\n\
                 for (i = 0; i != n; i = i + 1) b[i] = 1;\n\
                 for (i = 0; i < n; i += 4) c[i] = 1;\n\
               }\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n"));
    assert_eq!(section(&m, "f", "b").as_deref(), Some("0:n"));
    // A step of 4 may stop short of n - 1; n - 1 is still a safe last index.
    assert_eq!(section(&m, "f", "c").as_deref(), Some("0:n"));
}

#[test]
fn decreasing_loops_and_reversed_index() {
    let m = c("void f(double *a, double *b, int n) {\n\
               #pragma omp target\n\
               for (int i = n - 1; i >= 0; i--) a[i] = b[n - 1 - i];\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n"));
    assert_eq!(section(&m, "f", "b").as_deref(), Some("0:n"));
}

#[test]
fn union_over_two_kernels() {
    let m = c("void f(double *a, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) a[i] = 1;\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 1; i < n; i++) a[i] += a[i - 1];\n\
               }\n");
    let ks = kernels(&m, func(&m, "f"));
    assert_eq!(section_in(&m, "f", "a", &ks[1..]).as_deref(), Some("0:n"));
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n"));
}

#[test]
fn union_with_a_shifted_second_kernel() {
    let m = c("void f(double *a, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) a[i] = 1;\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 1; i < n; i++) a[i] = 2;\n\
               }\n");
    let ks = kernels(&m, func(&m, "f"));
    assert_eq!(
        section_in(&m, "f", "a", &ks[1..]).as_deref(),
        Some("1:n - 1")
    );
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n"));
}

#[test]
fn incompatible_bounds_give_none() {
    let m = c("void f(double *a, int n, int m) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) a[i] = 1;\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < m; i++) a[i] = 2;\n\
               }\n");
    assert_eq!(section(&m, "f", "a"), None);
}

#[test]
fn flattened_two_dimensional() {
    let m = c("void f(double *a, const double *b, int n, int m) {\n\
               #pragma omp target teams distribute parallel for collapse(2)\n\
               for (int i = 0; i < n; i++)\n\
                 for (int j = 0; j < m; j++)\n\
                   a[i * m + j] = b[j + m * i] * 2;\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n * m"));
    assert_eq!(section(&m, "f", "b").as_deref(), Some("0:m * n"));
}

#[test]
fn triangular_nest() {
    let m = c("void f(double *a, int n) {\n\
               #pragma omp target teams distribute\n\
               for (int i = 0; i < n; i++)\n\
                 for (int j = i; j < n; j++)\n\
                   a[i * n + j] = 0;\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n * n"));
}

#[test]
fn fixed_size_arrays_are_whole() {
    let m = c("double g[64][32];\n\
               void f(int n) {\n\
               double a[100][200];\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) a[i][i] = g[i % 64][0];\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:100"));
    assert_eq!(section(&m, "f", "g").as_deref(), Some("0:64"));
}

#[test]
fn pointer_to_pointer_rows() {
    let m = c("void f(double **a, int n, int m) {\n\
               #pragma omp target teams distribute parallel for collapse(2)\n\
               for (int i = 0; i < n; i++)\n\
                 for (int j = 0; j < m; j++)\n\
                   a[i][j] = 0;\n\
               }\n");
    // The first subscript: the rows.
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n"));
}

#[test]
fn symbolic_offset_and_members() {
    let m = c("struct S { int n; int off; };\n\
               void f(double *a, double *b, double *c, int n, int off, struct S s, struct S *p) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) { a[i + off] = 1; b[s.off + i] = 2; }\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < p->n; i++) c[i] = 3;\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("off:n"));
    assert_eq!(section(&m, "f", "b").as_deref(), Some("s.off:n"));
    assert_eq!(section(&m, "f", "c").as_deref(), Some("0:p->n"));
}

#[test]
fn pointer_arithmetic_forms() {
    let m = c("void f(double *a, double *b, double *c, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) { *(a + i) = 1; (b + 1)[i] = 2; }\n\
               #pragma omp target\n\
               *c = 0;\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n"));
    assert_eq!(section(&m, "f", "b").as_deref(), Some("1:n"));
    assert_eq!(section(&m, "f", "c").as_deref(), Some("0:1"));
}

#[test]
fn symbol_assigned_inside_gives_none() {
    let m = c("void f(double *a, int n) {\n\
               int k = 0;\n\
               #pragma omp target\n\
               {\n\
                 k = n / 2;\n\
                 for (int i = 0; i < n; i++) a[i + k] = 1;\n\
               }\n\
               }\n");
    assert_eq!(section(&m, "f", "a"), None);
}

#[test]
fn induction_variable_written_in_the_body_gives_none() {
    let m = c("void f(double *a, int n) {\n\
               #pragma omp target\n\
               for (int i = 0; i < n; i++) { a[i] = 1; i++; }\n\
               }\n");
    assert_eq!(section(&m, "f", "a"), None);
}

#[test]
fn unbounded_uses_give_none() {
    let m = c("void g(double *p);\n\
               void f(double *a, double *b, double *c, const int *idx, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) { a[idx[i]] = 1; g(b); c[i * i] = 0; }\n\
               }\n");
    // An index through another array, a pointer passed to a callee.
    assert_eq!(section(&m, "f", "a"), None);
    assert_eq!(section(&m, "f", "b"), None);
    // A square of a counter from 0 is bounded by the square of its range's ends.
    assert_eq!(
        section(&m, "f", "c").as_deref(),
        Some("0:n * n - 2 * n + 2")
    );
    // The index array itself is fine.
    assert_eq!(section(&m, "f", "idx").as_deref(), Some("0:n"));
}

/// Why no section of `v` is found in the kernels of `f`: (access text, line, reason).
fn why_not(m: &Module, f: &str, v: &str) -> (String, u32, String) {
    let fid = func(m, f);
    let g = cfg::build(m, fid, Exec::Host);
    let ks = kernels(m, fid);
    let u = accessed_section_why(m, fid, &g, var(m, fid, v), &ks).unwrap_err();
    (u.text, m.line_col(u.span.unwrap().start).0, u.why)
}

#[test]
fn while_and_do_counters() {
    let m = c(
        "void f(double *a, double *b, double *c, double *d, int n) {\n\
               #pragma omp target\n\
               {\n\
                 int j = 3;\n\
                 while (j < n) { a[j] = 1; j++; }\n\
                 int k = 20;\n\
                 do { b[k - 1] = 2; k -= 2; } while (k >= 1);\n\
                 int r = 0;\n\
                 do { c[r] = 3; r++; } while (r < n);\n\
                 int w = 0;\n\
                 while (w < n) { d[w] = 0; if (d[0] > 1) w++; w++; }\n\
               }\n\
               }\n",
    );
    assert_eq!(section(&m, "f", "a").as_deref(), Some("3:n - 3"));
    assert_eq!(section(&m, "f", "b").as_deref(), Some("0:20"));
    // A `do` body runs once with r = 0 even when n <= 0: 0 and n - 1 cannot be ordered.
    assert_eq!(section(&m, "f", "c"), None);
    let (_, _, why) = why_not(&m, "f", "c");
    assert!(why.contains("cannot order"), "{why}");
    // A counter also stepped under a condition is no counter.
    assert_eq!(section(&m, "f", "d"), None);
}

#[test]
fn locals_and_conditional_definitions_are_followed() {
    let m = c(
        "void f(double *a, double *y, double *z, int m, int n, int left) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < m; i++) {\n\
                 int row = i * n;\n\
                 for (int j = 0; j < n; j++) { int at = row + j; a[at] = 1; }\n\
                 int from = left ? i - 1 : i + 1;\n\
                 y[from + 1] = 2;\n\
                 int g;\n\
                 if (left) g = i; else g = m + i;\n\
                 z[g] = 0;\n\
               }\n\
               }\n",
    );
    // Non-affine through two locals: i * n + j.
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:m * n"));
    // The two arms: i (0..m-1) and i + 2 (2..m+1).
    assert_eq!(section(&m, "f", "y").as_deref(), Some("0:m + 2"));
    // Assigned in both branches of an `if`: i, or m + i; they cannot be ordered.
    assert_eq!(section(&m, "f", "z"), None);
    let (text, line, why) = why_not(&m, "f", "z");
    assert_eq!((text.as_str(), line), ("z[g]", 10));
    assert!(why.contains("cannot be ordered"), "{why}");
}

#[test]
fn min_and_max_in_bounds_are_simplified_by_the_guard() {
    let m = c("#define MIN(a, b) ((a) < (b) ? (a) : (b))\n\
               #define MAX(a, b) ((a) > (b) ? (a) : (b))\n\
               void f(const double *w, double *z, double *u, double *t, int n, int m) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) {\n\
                 double s = 0;\n\
                 for (int j = MAX(0, i - 1); j < MIN(n, i + 2); j++) s += w[j];\n\
                 for (int k = 0; k < n && k <= n - 3; k++) s += u[k];\n\
                 for (int k = MIN(i, m); k < n; k++) s += t[k];\n\
                 z[i] = s;\n\
               }\n\
               }\n");
    assert_eq!(section(&m, "f", "w").as_deref(), Some("0:n"));
    // Both conjuncts bound k: the tighter one that compares is kept.
    assert_eq!(section(&m, "f", "u").as_deref(), Some("0:n - 2"));
    // A `min` in a lower bound must cover both arms: `i` (from 0) and `m` cannot be ordered.
    assert_eq!(section(&m, "f", "t"), None);
}

#[test]
fn products_of_counters_are_bounded_by_their_ranges() {
    let m = c("void f(double *a, double *b, int m, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < m; i++)\n\
                 for (int j = 1; j <= n; j++) { a[i * j] = 1; b[i * j - i] = 2; }\n\
               }\n");
    // i * j over i in 0..m-1, j in 1..n: 0 to (m - 1) * n.
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:m * n - n + 1"));
    // i * j - i: by intervals at least 0 * 1 - (m - 1), which may fall before the data.
    assert_eq!(section(&m, "f", "b"), None);
}

#[test]
fn the_access_that_defeats_the_analysis_is_named() {
    let m = c("void g(double *p);\n\
               void f(double *a, double *b, const int *idx, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) {\n\
                 a[idx[i]] = 1;\n\
                 g(b);\n\
               }\n\
               }\n");
    let (text, line, why) = why_not(&m, "f", "a");
    assert_eq!((text.as_str(), line), ("a[idx[i]]", 5));
    assert!(
        why.contains("`idx[i]` depends on the loop counter `i`"),
        "{why}"
    );
    let (text, line, why) = why_not(&m, "f", "b");
    assert_eq!((text.as_str(), line), ("b", 6));
    assert!(why.contains("passed to `g`"), "{why}");
}

#[test]
fn null_test_is_not_a_use() {
    let m = c("void f(double *a, int n) {\n\
               #pragma omp target\n\
               if (a != 0) for (int i = 0; i < n; i++) a[i] = 1;\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:n"));
}

#[test]
fn host_loop_inside_or_outside_the_statements() {
    let m = c("void f(double *a, int n, int steps) {\n\
               for (int t = 0; t < steps; t++) {\n\
               #pragma omp target\n\
                 a[t] += 1;\n\
               }\n\
               }\n");
    let fid = func(&m, "f");
    // Only the kernel: the host loop's variable is a symbol.
    assert_eq!(section(&m, "f", "a").as_deref(), Some("t:1"));
    // The host loop too: its range counts.
    let body = m.function(fid).body.unwrap();
    assert_eq!(
        section_in(&m, "f", "a", &[body]).as_deref(),
        Some("0:steps")
    );
}

#[test]
fn cpp_member_call_bound() {
    let m = lower(
        "s.cpp",
        "#include <cstddef>\n\
         struct V { int len; int size() const { return len; } };\n\
         void f(double *p, const V &v) {\n\
         #pragma omp target teams distribute parallel for\n\
         for (size_t i = 0; i < v.size(); i++) p[i] = 0;\n\
         }\n",
    );
    assert_eq!(section(&m, "f", "p").as_deref(), Some("0:v.size()"));
}

#[test]
fn division_in_bounds() {
    let m = c("void f(double *a, double *b, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n / 2; i++) { a[2 * i] = 1; b[i] = a[2 * i + 1]; }\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:2 * (n / 2)"));
    assert_eq!(section(&m, "f", "b").as_deref(), Some("0:n / 2"));
}

#[test]
fn allocation_forms() {
    let m = c("#include <stdlib.h>\n\
               void f(int n, int m) {\n\
               double *a = (double *)malloc(n * sizeof(double));\n\
               double *b = malloc(sizeof(double) * n * m);\n\
               float *c = calloc(n, sizeof(float));\n\
               double *d;\n\
               d = malloc(n * sizeof *d);\n\
               double *e = aligned_alloc(64, (n + 1) * sizeof(double));\n\
               double *g = NULL;\n\
               if (n > 0) g = (double *)malloc(sizeof(double) * n);\n\
               double *h;\n\
               if (posix_memalign((void **)&h, 64, n * sizeof(double))) return;\n\
               char *s = malloc(n);\n\
               double *one = malloc(sizeof(double));\n\
               }\n");
    assert_eq!(alloc(&m, "f", "a").as_deref(), Some("n"));
    assert_eq!(alloc(&m, "f", "b").as_deref(), Some("n * m"));
    assert_eq!(alloc(&m, "f", "c").as_deref(), Some("n"));
    assert_eq!(alloc(&m, "f", "d").as_deref(), Some("n"));
    assert_eq!(alloc(&m, "f", "e").as_deref(), Some("n + 1"));
    assert_eq!(alloc(&m, "f", "g").as_deref(), Some("n"));
    assert_eq!(alloc(&m, "f", "h").as_deref(), Some("n"));
    assert_eq!(alloc(&m, "f", "s").as_deref(), Some("n"));
    assert_eq!(alloc(&m, "f", "one").as_deref(), Some("1"));
}

#[test]
fn allocation_give_ups() {
    let m = c("#include <stdlib.h>\n\
               void f(double *p, int n, int m) {\n\
               double *a = malloc(n * sizeof(double));\n\
               a = malloc(m * sizeof(double));\n\
               double *b = malloc(n * sizeof(double));\n\
               b = realloc(b, n * sizeof(double));\n\
               double *c = p;\n\
               double *d = malloc(n);\n\
               double *e = malloc(n * sizeof(double));\n\
               e++;\n\
               }\n");
    // Two different lengths.
    assert_eq!(alloc(&m, "f", "a"), None);
    // The same length twice is fine.
    assert_eq!(alloc(&m, "f", "b").as_deref(), Some("n"));
    // Not an allocation; a parameter never allocated here.
    assert_eq!(alloc(&m, "f", "c"), None);
    assert_eq!(alloc(&m, "f", "p"), None);
    // Bytes not a multiple of the element size.
    assert_eq!(alloc(&m, "f", "d"), None);
    // Moved after allocation.
    assert_eq!(alloc(&m, "f", "e"), None);
}

fn n() -> Poly {
    Poly::atom("n")
}
fn m_() -> Poly {
    Poly::atom("m")
}
fn k(c: i64) -> Poly {
    Poly::constant(c)
}

#[test]
fn poly_display() {
    assert_eq!(n().sub(&k(1)).to_string(), "n - 1");
    assert_eq!(n().scale(2).to_string(), "2 * n");
    assert_eq!(n().mul(&m_()).add(&k(1)).to_string(), "n * m + 1");
    assert_eq!(n().sub(&n()).to_string(), "0");
    assert_eq!(k(0).to_string(), "0");
    assert_eq!(k(-3).to_string(), "-3");
    assert_eq!(k(1).sub(&n()).to_string(), "-n + 1");
    assert_eq!(n().scale(2).add(&k(1)).to_string(), "2 * n + 1");
    assert_eq!(
        n().mul(&n()).sub(&m_().scale(3)).to_string(),
        "n * n - 3 * m"
    );
    assert_eq!(
        Poly::atom("v.size()").sub(&k(1)).to_string(),
        "v.size() - 1"
    );
}

#[test]
fn poly_canonical_equality() {
    assert_eq!(n().mul(&m_()), m_().mul(&n()));
    assert_eq!(n().add(&m_()), m_().add(&n()));
    assert_eq!(n().add(&k(1)).sub(&k(1)), n());
    assert_eq!(n().add(&k(2)).as_const(), None);
    assert_eq!(n().add(&k(2)).sub(&n()).as_const(), Some(2));
    // Printing keeps the written order of factors.
    assert_eq!(m_().mul(&n()).to_string(), "m * n");
}

#[test]
fn poly_division_and_substitution() {
    let two_n_4 = n().scale(2).add(&k(4));
    assert_eq!(two_n_4.div(2).unwrap().to_string(), "n + 2");
    assert_eq!(k(7).div(2).unwrap(), k(3));
    assert_eq!(k(-7).div(2).unwrap(), k(-3));
    assert_eq!(n().div(0), None);
    let half = n().add(&k(1)).div(2).unwrap();
    assert_eq!(half.to_string(), "(n + 1) / 2");
    assert_eq!(half.scale(2).to_string(), "2 * ((n + 1) / 2)");
    assert_eq!(half.add(&k(1)).to_string(), "(n + 1) / 2 + 1");
    // (i * m + j)[i := n - 1, j := m - 1] = n * m - 1
    let idx = Poly::atom("i").mul(&m_()).add(&Poly::atom("j"));
    let last = idx.subst("j", &m_().sub(&k(1))).subst("i", &n().sub(&k(1)));
    assert_eq!(last.to_string(), "n * m - 1");
}

#[test]
fn section_display_and_union() {
    let a = Section::from_bounds(&k(0), &n().sub(&k(1)));
    assert_eq!(a.to_string(), "0:n");
    let b = Section::from_bounds(&k(1), &n().sub(&k(2)));
    assert_eq!(b.to_string(), "1:n - 2");
    assert_eq!(a.union(&b).unwrap().to_string(), "0:n");
    assert_eq!(b.union(&a).unwrap().to_string(), "0:n");
    let c = Section::from_bounds(&k(2), &n());
    assert_eq!(b.union(&c).unwrap().to_string(), "1:n");
    let d = Section::from_bounds(&k(0), &m_().sub(&k(1)));
    assert_eq!(a.union(&d), None);
}

// ----- properties -------------------------------------------------------------------------

const ATOMS: [&str; 3] = ["i", "n", "v.size()"];

/// A random polynomial of small degree over a few atoms.
fn poly_strategy() -> impl Strategy<Value = Poly> {
    prop::collection::vec(
        (-20i64..20, prop::collection::vec(0usize..ATOMS.len(), 0..3)),
        0..5,
    )
    .prop_map(|terms| {
        terms.iter().fold(Poly::zero(), |acc, (c, atoms)| {
            let t = atoms
                .iter()
                .fold(Poly::constant(*c), |t, a| t.mul(&Poly::atom(ATOMS[*a])));
            acc.add(&t)
        })
    })
}

fn eval(p: &Poly, env: &BTreeMap<&str, i64>) -> i64 {
    p.terms().fold(0i64, |acc, (atoms, c)| {
        let t = atoms.iter().fold(c, |t, a| t.wrapping_mul(env[&**a]));
        acc.wrapping_add(t)
    })
}

fn env_strategy() -> impl Strategy<Value = BTreeMap<&'static str, i64>> {
    prop::collection::vec(-50i64..50, ATOMS.len())
        .prop_map(|vals| ATOMS.iter().copied().zip(vals).collect())
}

proptest! {
    #[test]
    fn arithmetic_agrees_with_evaluation(p in poly_strategy(), q in poly_strategy(),
                                         env in env_strategy()) {
        prop_assert_eq!(eval(&p.add(&q), &env), eval(&p, &env).wrapping_add(eval(&q, &env)));
        prop_assert_eq!(eval(&p.sub(&q), &env), eval(&p, &env).wrapping_sub(eval(&q, &env)));
        prop_assert_eq!(eval(&p.mul(&q), &env), eval(&p, &env).wrapping_mul(eval(&q, &env)));
        prop_assert_eq!(p.add(&q), q.add(&p));
        prop_assert_eq!(p.mul(&q), q.mul(&p));
        prop_assert_eq!(p.sub(&p), Poly::zero());
    }

    #[test]
    fn substitution_agrees_with_evaluation(p in poly_strategy(), q in poly_strategy(),
                                           env in env_strategy()) {
        let mut env2 = env.clone();
        env2.insert("i", eval(&q, &env));
        prop_assert_eq!(eval(&p.subst("i", &q), &env), eval(&p, &env2));
    }

    #[test]
    fn constant_differences_agree_with_subtraction(p in poly_strategy(), q in poly_strategy(),
                                                    c in -9i64..9) {
        prop_assert_eq!(p.const_diff(&q), p.sub(&q).as_const());
        // Equal up to a constant: the difference is that constant.
        let shifted = p.add(&Poly::constant(c));
        prop_assert_eq!(shifted.const_diff(&p), Some(c));
    }

    #[test]
    fn exact_division_round_trips(p in poly_strategy(), c in 1i64..6) {
        prop_assert_eq!(p.scale(c).div(c).unwrap(), p);
    }

    #[test]
    fn union_contains_both(a in -5i64..5, la in 0i64..5, b in -5i64..5, lb in 0i64..5) {
        let s1 = Section::new(n().add(&k(a)), k(la));
        let s2 = Section::new(n().add(&k(b)), k(lb));
        let u = s1.union(&s2).unwrap();
        let lo = u.lower.sub(&n()).as_const().unwrap();
        let end = u.end().sub(&n()).as_const().unwrap();
        prop_assert_eq!(lo, a.min(b));
        prop_assert_eq!(end, (a + la).max(b + lb));
    }
}

/// The polynomial of the expression returned by `f`'s first `return`.
fn returned(m: &Module, f: &str) -> Option<String> {
    let fid = func(m, f);
    let func = m.function(fid);
    let e = func.stmts.iter().find_map(|s| match s.kind {
        StmtKind::Return(Some(e)) => Some(e),
        _ => None,
    })?;
    Poly::from_expr(m, func, e).map(|p| p.to_string())
}

#[test]
fn polynomials_from_expressions() {
    let m = c("struct S { int len; };\n\
               int f(int n, struct S *p, const int *b) { return (n + 1) / 2 + p->len * 3 + b[n] - (long)n + n; }\n\
               int g(int n) { return -(n - 2) * 4 + (6 * n + 2) / 2 + (n << 1); }\n\
               int h(int n, int m) { return n % m + (n > m ? n : m); }\n\
               int k(double x) { return (int)x; }\n\
               int l(int n) { return n++; }\n");
    assert_eq!(
        returned(&m, "f").as_deref(),
        Some("(n + 1) / 2 + b[n] + 3 * p->len")
    );
    assert_eq!(returned(&m, "g").as_deref(), Some("n + 9"));
    assert_eq!(
        returned(&m, "h").as_deref(),
        Some("n % m + (n > m ? n : m)")
    );
    assert_eq!(returned(&m, "k"), None);
    assert_eq!(returned(&m, "l"), None);
}

#[test]
fn kernel_pointers_offset_from_the_mapped_one() {
    // `row` is `a` plus an offset the kernel computes; its accesses are `a`'s.
    let m = c("void f(double *a, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) {\n\
                 double *row = a + 8 * i;\n\
                 for (int k = 0; k < 8; k++) row[k] = k;\n\
               }\n\
               }\n\
               void g(double *a, double *b, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) {\n\
                 double *row = a + i;\n\
                 row = b;\n\
                 row[0] = 1;\n\
               }\n\
               }\n");
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:8 * n"));
    // Set again: not a view of `a` any more, and `a` itself escapes into it.
    assert_eq!(section(&m, "g", "a"), None);
}

#[test]
fn compressed_row_lists_take_their_offsets_as_non_decreasing() {
    let m = c(
        "void f(const int *start, const int *cols, double *y, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int r = 0; r < n; r++) {\n\
                 const int count = start[r + 1] - start[r];\n\
                 const int *row = cols + start[r];\n\
                 double s = 0;\n\
                 for (int k = 0; k < count; k++) s += row[k];\n\
                 y[r] = s;\n\
               }\n\
               }\n\
               void g(const int *start, const double *v, double *y, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int r = 0; r < n; r++) {\n\
                 double s = 0;\n\
                 for (int k = start[r]; k < start[r + 1]; k++) s += v[k];\n\
                 y[r] = s;\n\
               }\n\
               }\n\
               void h(const int *start, const double *v, double *y, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int r = 0; r < n; r++) {\n\
                 double s = 0;\n\
                 for (int k = start[r]; k < start[r + 2]; k++) s += v[k];\n\
                 y[r] = s;\n\
               }\n\
               }\n",
    );
    assert_eq!(
        section(&m, "f", "cols").as_deref(),
        Some("start[0]:start[n] - start[0]")
    );
    assert_eq!(section(&m, "f", "start").as_deref(), Some("0:n + 1"));
    assert_eq!(
        section(&m, "g", "v").as_deref(),
        Some("start[0]:start[n] - start[0]")
    );
    // Not neighbours: no compressed list, nothing assumed.
    assert_eq!(section(&m, "h", "v"), None);
}

#[test]
fn covered_blocks_of_nested_loops() {
    use omplens_analysis::semantics::sections::covered_sections;
    let m = c(
        "void f(double *a, double *b, double *c, double *d, int n) {\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) {\n\
                 for (int k = 0; k < 8; k++) { int j = 8 * i + k; a[j] = k; }\n\
                 for (int k = 0; k < 4; k++) b[8 * i + k] = k;\n\
                 if (i > 2) for (int k = 0; k < 8; k++) c[8 * i + k] = k;\n\
                 for (int k = 0; k < 8; k++) d[i + n * k] = k;\n\
               }\n\
               }\n",
    );
    let fid = func(&m, "f");
    let g = cfg::build(&m, fid, Exec::Host);
    let k = kernels(&m, fid)[0];
    let covered = |v: &str| -> Vec<String> {
        covered_sections(&m, fid, &g, var(&m, fid, v), k)
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    assert_eq!(covered("a"), vec!["0:8 * n".to_string()]);
    // Holes, a block written only on some iterations, a stride the inner loop does not fill.
    assert!(covered("b").is_empty());
    assert!(covered("c").is_empty());
    assert!(covered("d").is_empty());
}

/// The shared setups (`SectionsIn` over a function's kernels, `KernelCover` per kernel)
/// answer as the one-variable functions do, for every variable: aliases, a pointer passed to
/// a callee, a `while` counter, a written bound, arrays written in full and in part.
#[test]
fn shared_setups_answer_as_one_variable_at_a_time() {
    use omplens_analysis::semantics::sections::{covered_sections, KernelCover, SectionsIn};
    let m = c(
        "static void fill4(double *p) { for (int i = 0; i < 4; i++) p[i] = i; }\n\
         void f(double *a, double *b, double *c, double *d, int *start, int n, int m) {\n\
         #pragma omp target teams distribute parallel for\n\
         for (int i = 0; i < n; i++) { double *row = a + 8 * i;\n\
           for (int k = 0; k < 8; k++) row[k] = k; b[i] = a[8 * i]; }\n\
         #pragma omp target\n\
         { int j = 0; while (j < m) { c[j] = b[j]; j += 1; } n = m; }\n\
         #pragma omp target teams distribute parallel for\n\
         for (int r = 0; r < n; r++)\n\
           for (int k = start[r]; k < start[r + 1]; k++) d[k] = r;\n\
         #pragma omp target teams distribute parallel for\n\
         for (int q = 0; q < n; q++) fill4(&c[4 * q]);\n\
         }\n",
    );
    let fid = func(&m, "f");
    let g = cfg::build(&m, fid, Exec::Host);
    let ks = kernels(&m, fid);
    assert_eq!(ks.len(), 4);
    let vars: Vec<VarId> = ["a", "b", "c", "d", "start", "n", "m", "row"]
        .iter()
        .map(|v| var(&m, fid, v))
        .collect();
    let text = |s: Option<Section>| s.map(|s| s.to_string());
    let mut some = 0;
    for stmts in [ks.clone(), ks[..1].to_vec(), ks[1..3].to_vec()] {
        let shared = SectionsIn::new(&m, fid, &g, &stmts);
        for &v in &vars {
            let alone = accessed_section(&m, fid, &g, v, &stmts);
            some += usize::from(alone.is_some());
            assert_eq!(text(shared.accessed(v)), text(alone), "{v:?} in {stmts:?}");
        }
    }
    assert!(
        some >= 4,
        "the program should have sections to compare ({some})"
    );
    for &k in &ks {
        let cover = KernelCover::new(&m, fid, &g, k);
        for &v in &vars {
            assert_eq!(
                cover.covered(v),
                covered_sections(&m, fid, &g, v, k),
                "{v:?} in {k:?}"
            );
        }
    }
}

#[test]
fn callee_names_inside_compound_atoms_are_renamed() {
    let p = Poly::atom("s[n]")
        .add(&Poly::atom("n / 2"))
        .add(&Poly::atom("n"));
    let by = Poly::atom("m").add(&Poly::constant(1));
    assert!(p.mentions_within_atoms("n"));
    assert!(!Poly::atom("p->n").mentions_within_atoms("n"));
    assert_eq!(
        p.subst_everywhere("n", &by).to_string(),
        "(m + 1) / 2 + m + s[(m + 1)] + 1"
    );
}

#[test]
fn blocks_a_callee_writes_through_the_address_it_gets() {
    use omplens_analysis::semantics::sections::covered_sections;
    let m = c(
        "static void fill4(double *p) { for (int i = 0; i < 4; i++) p[i] = i; }\n\
         static void fill2(double *p) { for (int i = 0; i < 2; i++) p[i] = i; }\n\
         void f(double *a, double *b, int n) {\n\
         #pragma omp target teams distribute parallel for\n\
         for (int k = 0; k < n; k++) { fill4(&a[4 * k]); fill2(b + 4 * k); }\n\
         }\n",
    );
    // `&a[4 * k]` is `a + 4 * k`: the callee's section, shifted.
    assert_eq!(section(&m, "f", "a").as_deref(), Some("0:4 * n"));
    assert_eq!(section(&m, "f", "b").as_deref(), Some("0:4 * n - 2"));
    let fid = func(&m, "f");
    let g = cfg::build(&m, fid, Exec::Host);
    let k = kernels(&m, fid)[0];
    let covered = |v: &str| -> Vec<String> {
        covered_sections(&m, fid, &g, var(&m, fid, v), k)
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    assert_eq!(covered("a"), vec!["0:4 * n".to_string()]);
    // Two of every four: holes.
    assert!(covered("b").is_empty());
}

#[test]
fn guards_from_else_branches_and_conditional_arms() {
    // HeCBench's adjacent difference: `in[i + 1]` only where `i + 1 < per`, `in[i - 1]` only
    // where `i - 1 >= 0`; a section one past the block would extend the caller's mapping.
    let m = c("void f(const int *d_in, int *d_out, int nb, int per) {\n\
         #pragma omp target teams distribute\n\
         for (int b = 0; b < nb; b++) {\n\
           const int *in = d_in + b * per;\n\
           int *out = d_out + b * per;\n\
           for (int i = 0; i < per; i++) {\n\
             out[i] = (i + 1) >= per ? in[i] : in[i] - in[i + 1];\n\
             if (!(i - 1 < 0)) out[i] += in[i - 1]; else out[i] += 1;\n\
           }\n\
         }\n\
         }\n");
    assert_eq!(section(&m, "f", "d_in").as_deref(), Some("0:nb * per"));
    assert_eq!(section(&m, "f", "d_out").as_deref(), Some("0:nb * per"));
}

/// An index that expands to more terms than any program's (a product of eight sums, 256
/// terms) is not bounded, and the reason says why; the same index of seven sums (128 terms)
/// still is.
#[test]
fn an_index_of_hundreds_of_terms_is_not_bounded() {
    let product = |k: usize| {
        (0..k)
            .map(|q| format!("(i + n{q})"))
            .collect::<Vec<_>>()
            .join(" * ")
    };
    let m = c(&format!(
        "void f(double *a, double *b, int n, int n0, int n1, int n2, int n3, int n4, int n5,\
               int n6, int n7) {{\n\
               #pragma omp target teams distribute parallel for\n\
               for (int i = 0; i < n; i++) {{\n\
                 a[{}] = 1;\n\
                 b[{}] = 1;\n\
               }}\n\
               }}\n",
        product(8),
        product(7),
    ));
    assert_eq!(section(&m, "f", "a"), None);
    let (_, line, why) = why_not(&m, "f", "a");
    assert_eq!(line, 4);
    assert!(why.contains("expands to 256 terms"), "{why}");
    assert!(section(&m, "f", "b").is_some());
}

/// The variable `var` of `func` is a copy of (its root, by name).
fn copy_root_of(m: &Module, func_name: &str, var_name: &str) -> Option<String> {
    let f = func(m, func_name);
    let v = var(m, f, var_name);
    copy_root(m, m.function(f), v).map(|(r, _)| m.var(r).name.clone())
}

#[test]
fn a_local_copy_by_assignment_or_of_an_array_has_a_root() {
    let m = lower(
        "copies.c",
        "void f(int *a, int n) {\n  int grid[8];\n  int *p;\n  p = a;\n  int *q = grid;\n  p[0] = q[0] + n;\n}\n",
    );
    assert_eq!(copy_root_of(&m, "f", "p").as_deref(), Some("a"));
    assert_eq!(copy_root_of(&m, "f", "q").as_deref(), Some("grid"));
}

#[test]
fn a_parameter_set_from_a_swap_temporary_is_no_copy() {
    // `result = t;` does not make the parameter `result` a view of `t` for the whole
    // function: it held the caller's buffer before (HeCBench hybridsort's swap).
    let m = lower(
        "copies.c",
        "void f(float *orig, float *result, int n) {\n  for (int s = 0; s < n; s++) {\n    float *t = orig;\n    orig = result;\n    result = t;\n  }\n}\n",
    );
    assert_eq!(copy_root_of(&m, "f", "result"), None);
    assert_eq!(copy_root_of(&m, "f", "orig"), None);
}
