//! Interprocedural side-effect summaries on small programs.

mod common;
use common::lower;
use omplens_analysis::ir::{device, FuncId, Module};
use omplens_analysis::semantics::effects::{summarize, SpaceEffect};

fn func(m: &Module, name: &str) -> FuncId {
    FuncId(
        m.functions
            .iter()
            .position(|f| {
                f.name == name
                    && (f.has_body || !m.functions.iter().any(|g| g.name == name && g.has_body))
            })
            .unwrap_or_else(|| panic!("no function {name}")) as u32,
    )
}

/// Absolute effect on parameter `i` of `f`.
fn param(m: &Module, f: &str, i: usize) -> SpaceEffect {
    let id = func(m, f);
    let exec = device::classify(m)[id];
    summarize(m)[id].params[i].spaces(exec)
}

fn global(m: &Module, f: &str, g: &str) -> SpaceEffect {
    let id = func(m, f);
    let exec = device::classify(m)[id];
    let v = m.vars.iter().position(|v| v.name == g).unwrap();
    summarize(m)[id]
        .globals
        .iter()
        .find(|(k, _)| k.0 as usize == v)
        .map(|(_, e)| e.spaces(exec))
        .unwrap_or_default()
}

fn e(hr: bool, hw: bool, dr: bool, dw: bool) -> SpaceEffect {
    SpaceEffect {
        host_read: hr,
        host_write: hw,
        device_read: dr,
        device_write: dw,
    }
}

#[test]
fn writes_through_pointer_parameters_reach_callers() {
    let m = lower(
        "a.c",
        "static void fill(double *x, int n) { for (int i = 0; i < n; ++i) x[i] = i; }\n\
         static void outer(double *y, double *z, int n) { double loc[4]; fill(y, n); fill(loc, 4); z[0] += 1; }\n",
    );
    assert_eq!(param(&m, "fill", 0), e(false, true, false, false));
    assert_eq!(
        param(&m, "fill", 1),
        SpaceEffect::default(),
        "n is passed by value"
    );
    assert_eq!(param(&m, "outer", 0), e(false, true, false, false));
    assert_eq!(param(&m, "outer", 1), e(true, true, false, false));
}

#[test]
fn kernel_effects_are_on_the_device() {
    let m = lower(
        "k.c",
        "double g[64];\n\
         static void scale(double *a, int n) {\n\
         #pragma omp target teams distribute parallel for map(tofrom: a[0:n])\n\
           for (int i = 0; i < n; ++i) { a[i] *= 2; g[i % 64] = a[i]; }\n}\n\
         void run(double *b) { scale(b, 8); }\n",
    );
    assert_eq!(param(&m, "scale", 0), e(false, false, true, true));
    assert_eq!(global(&m, "scale", "g"), e(false, false, false, true));
    // Through the call, in the caller.
    assert_eq!(param(&m, "run", 0), e(false, false, true, true));
    assert_eq!(global(&m, "run", "g"), e(false, false, false, true));
}

#[test]
fn a_function_called_from_a_kernel_acts_on_the_device() {
    let m = lower(
        "d.c",
        "static void bump(double *p) { *p += 1; }\n\
         void host_and_kernel(double *q) {\n  bump(q);\n#pragma omp target map(tofrom: q[0:1])\n  bump(q);\n}\n",
    );
    // bump runs on host and device; its effect is relative to where it is called.
    assert_eq!(param(&m, "host_and_kernel", 0), e(true, true, true, true));
}

#[test]
fn recursion_reaches_a_fixed_point() {
    let m = lower(
        "r.c",
        "void walk(double *a, int n) { if (n <= 0) return; a[n - 1] = n; walk(a, n - 1); }\n\
         void ping(double *a, int n); void pong(double *a, int n) { if (n) ping(a, n - 1); }\n\
         void ping(double *a, int n) { a[0] = 1; if (n) pong(a, n - 1); }\n",
    );
    assert_eq!(param(&m, "walk", 0), e(false, true, false, false));
    assert_eq!(param(&m, "pong", 0), e(false, true, false, false));
}

#[test]
fn prototypes_are_judged_by_constness() {
    let m = lower(
        "p.c",
        "void ext_read(const double *a); void ext_rw(double *a);\n\
         void f(double *x, double *y) { ext_read(x); ext_rw(y); }\n",
    );
    assert_eq!(param(&m, "f", 0), e(true, false, false, false));
    assert_eq!(param(&m, "f", 1), e(true, true, false, false));
}

#[test]
fn local_pointer_aliases_count_as_the_parameter() {
    let m = lower(
        "al.c",
        "void f(double *p, int n) { double *q = p + 1; q[0] = 2; double *r; r = &p[3]; *r = 1; }\n",
    );
    assert_eq!(param(&m, "f", 0), e(false, true, false, false));
}

#[test]
fn member_functions_affect_their_object() {
    let m = lower(
        "c.cpp",
        "struct Grid { double v[16];\n  void relax() {\n#pragma omp target teams distribute parallel for\n    for (int i = 0; i < 16; ++i) v[i] *= 0.5;\n  }\n  double first() const { return v[0]; }\n};\n\
         void step(Grid &g) { g.relax(); }\n\
         double peek(const Grid &g) { return g.first(); }\n",
    );
    let relax = func(&m, "relax");
    assert!(summarize(&m)[relax].this.kernel_write);
    assert_eq!(param(&m, "step", 0), e(false, false, true, true));
    assert_eq!(param(&m, "peek", 0), e(true, false, false, false));
}

#[test]
fn const_pointer_arguments_take_the_callees_space() {
    let m = lower(
        "cp.c",
        "static void consume(const double *x, double *y, int n) {\n\
         #pragma omp target teams distribute parallel for map(to: x[0:n]) map(from: y[0:n])\n\
           for (int i = 0; i < n; ++i) y[i] = x[i];\n}\n\
         void chain(double *a, double *b, int n) { consume(a, b, n); }\n",
    );
    // `a` is only read, and only on the device, even though the call itself is on the host.
    assert_eq!(param(&m, "chain", 0), e(false, false, true, false));
    assert_eq!(param(&m, "chain", 1), e(false, false, false, true));
}

/// (inner name, outer name) pairs of `shadowed_aliases` in `main`, with the inner's line.
fn shadows(src: &str) -> Vec<(String, String)> {
    let m = lower("t.cpp", src);
    let f = m.function(func(&m, "main"));
    let mut out: Vec<(String, String)> =
        omplens_analysis::semantics::effects::shadowed_aliases(&m, f)
            .into_iter()
            .map(|(a, b)| (m.var(a).name.clone(), m.var(b).name.clone()))
            .collect();
    out.sort();
    out
}

const MESH: &str = "#include <vector>\nstruct Mesh { std::vector<double> m_ss, m_e; };\n";

#[test]
fn a_view_taken_again_inside_is_the_outer_view() {
    let src = format!(
        "{MESH}int main() {{\n  Mesh *dom = new Mesh();\n  double *ss = &dom->m_ss[0];\n  double *e = dom->m_e.data();\n  for (int s = 0; s < 3; s++) {{\n    Mesh &mesh = *dom;\n    double *ss = &mesh.m_ss[0];\n    double *e = mesh.m_e.data();\n    ss[0] += e[0];\n  }}\n  return (int)ss[0] + (int)e[0];\n}}\n"
    );
    assert_eq!(
        shadows(&src),
        [
            ("e".to_string(), "e".to_string()),
            ("ss".into(), "ss".into())
        ]
    );
}

#[test]
fn a_view_of_another_object_or_after_a_resize_is_not() {
    // Another mesh's member of the same name.
    let other = format!(
        "{MESH}int main() {{\n  Mesh *a = new Mesh(), *b = new Mesh();\n  double *ss = &a->m_ss[0];\n  {{\n    double *ss = &b->m_ss[0];\n    ss[0] = 1;\n  }}\n  return (int)ss[0];\n}}\n"
    );
    assert!(shadows(&other).is_empty());
    // The member gets new storage between the two views.
    let resized = format!(
        "{MESH}int main() {{\n  Mesh *dom = new Mesh();\n  double *ss = &dom->m_ss[0];\n  ss[0] = 1;\n  dom->m_ss.resize(100);\n  {{\n    double *ss = &dom->m_ss[0];\n    ss[1] = 2;\n  }}\n  return 0;\n}}\n"
    );
    assert!(shadows(&resized).is_empty());
    // The object's pointer is set again after the outer view.
    let moved = format!(
        "{MESH}int main() {{\n  Mesh *dom = new Mesh();\n  double *ss = &dom->m_ss[0];\n  ss[0] = 1;\n  dom = new Mesh();\n  {{\n    double *ss = &dom->m_ss[0];\n    ss[1] = 2;\n  }}\n  return 0;\n}}\n"
    );
    assert!(shadows(&moved).is_empty());
}
