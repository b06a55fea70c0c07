//! Front end + AST-CFG on small programs, one behaviour per test.

mod common;
use common::lower;
use omplens_analysis::frontend::lower_file;
use omplens_analysis::ir::access::{AccessKind, Root};
use omplens_analysis::ir::cfg::{self, Exec, LoopKind, NodeKind};
use omplens_analysis::ir::{
    device, BindingTarget, DirId, FuncId, Module, Severity, StmtKind, Storage,
};

fn func(m: &Module, name: &str) -> FuncId {
    let i = m
        .functions
        .iter()
        .position(|f| f.name == name && f.has_body)
        .unwrap_or_else(|| panic!("no function {name}"));
    FuncId(i as u32)
}

fn cfg_of(m: &Module, name: &str) -> cfg::Cfg {
    let id = func(m, name);
    cfg::build(m, id, device::classify(m)[id])
}

#[test]
fn variables_have_storage_type_and_size() {
    let m = lower(
        "v.c",
        "double g[100]; static int s; const float c = 1;\n\
         void f(double *p, int n) { static int k; double loc[4][8]; }\n",
    );
    let find = |n: &str| m.vars.iter().find(|v| v.name == n).unwrap();
    assert_eq!(find("g").storage, Storage::Global);
    assert_eq!(find("g").ty.size, Some(800));
    assert_eq!(find("s").storage, Storage::StaticGlobal);
    assert!(find("c").ty.is_const);
    assert_eq!(find("p").storage, Storage::Parameter);
    assert!(find("p").ty.is_pointer());
    assert_eq!(find("k").storage, Storage::StaticLocal);
    assert_eq!(find("loc").storage, Storage::Local);
    assert_eq!(find("loc").ty.size, Some(256));
}

#[test]
fn for_header_parts_and_induction_variable() {
    let m = lower(
        "f.c",
        "void f(double *a, int n) { int i; for (i = n - 1; i >= 0; i -= 2) a[i] = 0; for (;;) break; }\n",
    );
    let g = cfg_of(&m, "f");
    assert_eq!(g.loops.len(), 2);
    let f = m.function(func(&m, "f"));
    let StmtKind::For(l) = &f.stmt(g.loops[cfg::LoopId(0)].stmt).kind else {
        panic!("not a for")
    };
    assert!(l.init.is_some() && l.cond.is_some() && l.step.is_some());
    assert_eq!(m.var(g.loops[cfg::LoopId(0)].induction.unwrap()).name, "i");
    let StmtKind::For(l2) = &f.stmt(g.loops[cfg::LoopId(1)].stmt).kind else {
        panic!("not a for")
    };
    assert!(l2.init.is_none() && l2.cond.is_none() && l2.step.is_none());
}

#[test]
fn if_without_else_and_with_else() {
    let m = lower(
        "i.c",
        "int f(int x) { if (x) x = 1; if (x > 2) { x = 3; } else x = 4; return x; }\n",
    );
    let f = m.function(func(&m, "f"));
    let ifs: Vec<_> = f
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::If { els, .. } => Some(els.is_some()),
            _ => None,
        })
        .collect();
    assert_eq!(ifs, vec![false, true]);
}

#[test]
fn accesses_are_classified() {
    let m = lower(
        "a.c",
        "struct S { double *f; int n; };\n\
         void g(double *q); void h(const double *q);\n\
         void f(double *a, struct S *s, int i) {\n\
           a[i] = a[i + 1];\n  s->f[i] += 1;\n  i++;\n  g(a);\n  h(a);\n}\n",
    );
    let g = cfg_of(&m, "f");
    let accesses: Vec<(String, AccessKind, usize)> = g
        .nodes()
        .flat_map(|(_, n)| n.accesses.clone())
        .map(|a| {
            let name = match a.root {
                Root::Var(v) => m.var(v).name.clone(),
                Root::This => "this".into(),
            };
            (name, a.kind, a.path.len())
        })
        .collect();
    let has = |n: &str, k: AccessKind, depth: usize| accesses.contains(&(n.to_string(), k, depth));
    assert!(has("a", AccessKind::Write, 1), "{accesses:?}");
    assert!(has("a", AccessKind::Read, 1));
    // s->f[i]: deref, member, index.
    assert!(has("s", AccessKind::ReadWrite, 3), "{accesses:?}");
    assert!(has("i", AccessKind::ReadWrite, 0));
    // Passed to a non-const pointer parameter: unknown; to a const one: the pointee is read.
    assert!(has("a", AccessKind::Unknown, 0), "{accesses:?}");
    assert!(has("a", AccessKind::Read, 1));
}

#[test]
fn kernel_bodies_run_on_the_device() {
    let m = lower(
        "k.c",
        "void f(double *a, int n) {\n  a[0] = 1;\n#pragma omp target teams distribute parallel for map(tofrom: a[0:n])\n  for (int i = 0; i < n; ++i)\n    a[i] *= 2;\n  a[1] = 2;\n}\n",
    );
    let g = cfg_of(&m, "f");
    let kinds: Vec<(NodeKind, Exec)> = g.nodes().map(|(_, n)| (n.kind, n.exec)).collect();
    assert!(kinds
        .iter()
        .any(|k| matches!(k, (NodeKind::Enter(_), Exec::Host))));
    assert!(kinds
        .iter()
        .any(|k| matches!(k, (NodeKind::Exit(_), Exec::Host))));
    let device_stmts = kinds
        .iter()
        .filter(|k| matches!(k, (NodeKind::Stmt, Exec::Device)))
        .count();
    let host_stmts = kinds
        .iter()
        .filter(|k| matches!(k, (NodeKind::Stmt, Exec::Host)))
        .count();
    assert_eq!((device_stmts, host_stmts), (1, 2));
    assert_eq!(g.loops[cfg::LoopId(0)].exec, Exec::Device);
    let d = m.directive(DirId(0));
    assert!(d.governs.is_some());
}

#[test]
fn standalone_directives_are_nodes_of_their_own() {
    let m = lower(
        "u.c",
        "void f(double *a, int n) {\n#pragma omp target enter data map(to: a[0:n])\n  for (int t = 0; t < 3; ++t) {\n#pragma omp target\n    a[0] += 1;\n#pragma omp target update from(a[0:1])\n  }\n#pragma omp target exit data map(from: a[0:n])\n}\n",
    );
    let g = cfg_of(&m, "f");
    let standalone = g
        .nodes()
        .filter(|(_, n)| matches!(n.kind, NodeKind::Standalone(_)))
        .count();
    assert_eq!(standalone, 3);
    // The update at the end of the loop body is inside the loop.
    let update = g
        .nodes()
        .find(|(_, n)| matches!(n.kind, NodeKind::Standalone(d) if d.0 == 2))
        .unwrap();
    assert!(g.block(update.0).loop_id.is_some());
}

#[test]
fn functions_called_only_from_kernels_run_on_the_device() {
    let m = lower(
        "d.c",
        "static double sq(double x) { return x * x; }\n\
         static double both(double x) { return x + 1; }\n\
         void f(double *a, int n) {\n  a[0] = both(a[0]);\n#pragma omp target teams distribute parallel for\n  for (int i = 0; i < n; ++i) a[i] = sq(both(a[i]));\n}\n",
    );
    let exec = device::classify(&m);
    assert_eq!(exec[func(&m, "sq")], Exec::Device);
    assert_eq!(exec[func(&m, "both")], Exec::HostAndDevice);
    assert_eq!(exec[func(&m, "f")], Exec::Host);
}

#[test]
fn recursion_terminates_and_stays_on_host() {
    let m = lower(
        "r.c",
        "int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\nint main(void) { return fib(10); }\n",
    );
    let exec = device::classify(&m);
    assert_eq!(exec[func(&m, "fib")], Exec::Host);
}

#[test]
fn loops_nest_and_do_while_has_a_back_edge() {
    let m = lower(
        "l.c",
        "void f(int n) { int i = 0; do { while (i < n) { i++; if (i == 5) break; continue; } } while (i < 10); }\n",
    );
    let g = cfg_of(&m, "f");
    assert_eq!(g.loops.len(), 2);
    assert_eq!(g.loops[cfg::LoopId(0)].kind, LoopKind::Do);
    assert_eq!(g.loops[cfg::LoopId(1)].kind, LoopKind::While);
    assert_eq!(g.loops[cfg::LoopId(1)].parent, Some(cfg::LoopId(0)));
    let header = g.loops[cfg::LoopId(0)].header;
    // The do-while condition block jumps back to the body and out.
    assert_eq!(g.block(header).succs.len(), 2);
}

#[test]
fn backward_goto_is_not_analysed_with_a_reason() {
    let m = lower(
        "g.c",
        "void f(int n) { again: n--; if (n > 0) goto again; }\nvoid h(int n) { if (n) goto out; n = 1; out: return; }\n",
    );
    let f = m.function(func(&m, "f"));
    assert!(f.not_analysed.as_deref().unwrap().contains("goto again"));
    assert!(m.function(func(&m, "h")).not_analysed.is_none());
}

#[test]
fn directive_without_statement_is_an_error() {
    let m = lower(
        "e.c",
        "void f(double *a) {\n  a[0] = 1;\n#pragma omp target\n}\n",
    );
    let e = m
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .expect("an error");
    assert!(
        e.message.contains("must be followed by a statement"),
        "{}",
        e.message
    );
    assert_eq!(m.line_col(e.span.unwrap().start), (3, 1));
}

#[test]
fn pragmas_in_skipped_blocks_are_ignored() {
    let m = lower(
        "s.c",
        "void f(double *a) {\n#if 0\n#pragma omp target\n#endif\n#ifdef _OPENMP\n#pragma omp target\n#endif\n  a[0] = 1;\n}\n",
    );
    assert_eq!(m.directives.len(), 1);
    assert_eq!(
        m.line_col(m.directive(DirId(0)).directive.span.start),
        (6, 1)
    );
    assert!(m.directive(DirId(0)).governs.is_some());
}

#[test]
fn declare_target_region_marks_functions_and_globals() {
    let m = lower(
        "t.c",
        "#pragma omp declare target\ndouble table[8];\ndouble lookup(int i) { return table[i]; }\n#pragma omp end declare target\ndouble host_only(int i) { return i; }\n",
    );
    assert!(
        m.vars
            .iter()
            .find(|v| v.name == "table")
            .unwrap()
            .declare_target
    );
    assert!(m.function(func(&m, "lookup")).declare_target);
    assert!(!m.function(func(&m, "host_only")).declare_target);
}

#[test]
fn cxx_member_access_through_implicit_this() {
    let m = lower(
        "c.cpp",
        "struct G { double d[16]; void run() {\n#pragma omp target\n for (int i = 0; i < 16; ++i) d[i] = i;\n } };\n",
    );
    let g = cfg_of(&m, "run");
    let a = g
        .nodes()
        .flat_map(|(_, n)| n.accesses.clone())
        .find(|a| a.root == Root::This)
        .expect("an access through this");
    assert_eq!(a.kind, AccessKind::Write);
}

#[test]
fn unsaved_buffer_replaces_the_file() {
    let dir = std::env::temp_dir().join(format!("omplens-unsaved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("b.c");
    std::fs::write(&path, "int on_disk(void) { return 0; }\n").unwrap();
    let m = lower_file(&path, Some("int in_buffer(void) { return 1; }\n"), &[]).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(m.functions.iter().any(|f| f.name == "in_buffer"));
    assert!(!m.functions.iter().any(|f| f.name == "on_disk"));
}

#[test]
fn clause_names_resolve_by_scope() {
    let m = lower(
        "n.c",
        "int g;\nvoid f(int n) {\n  { int a[4]; }\n  double a = 1;\n#pragma omp target map(to: a, g, n, zz)\n  n++;\n}\n",
    );
    let b = &m.directive(DirId(0)).bindings;
    let var = |i: usize| match b[i].target {
        BindingTarget::Var(v) => Some((m.var(v).name.as_str(), m.var(v).storage)),
        _ => None,
    };
    // `a` is the double declared in the function's block, not the array of the inner block.
    assert_eq!(var(0), Some(("a", Storage::Local)));
    let BindingTarget::Var(a) = b[0].target else {
        panic!()
    };
    assert_eq!(m.var(a).ty.spelling, "double");
    assert_eq!(var(1), Some(("g", Storage::Global)));
    assert_eq!(var(2), Some(("n", Storage::Parameter)));
    assert_eq!(b[3].target, BindingTarget::Unresolved);
    let w = m
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Warning)
        .expect("a warning for zz");
    assert_eq!(w.message, "`zz` in `map` is not a variable in scope here");
    assert_eq!(m.line_col(w.span.unwrap().start), (5, 37));
}

/// `a - b + c - …` on operands of a template's dependent type, with `operator+`/`operator-`
/// declared somewhere visible, is a chain of operator calls clang cannot resolve yet. Each is
/// lowered once: the IR grows with the source, not as 2^n (S3D.cpp of HeCBench never
/// finished), and the callee is the operator's name, not its first operand.
#[test]
fn unresolved_operator_chains_lower_linearly() {
    let terms = 20;
    let sum: String = (1..=terms)
        .map(|k| {
            format!(
                " {} (a[{k} * n + i] - b[{k} * n + i])",
                if k % 3 == 0 { '-' } else { '+' }
            )
        })
        .collect();
    let src = format!(
        "struct S {{}}; S operator+(S, S); S operator-(S, S); S operator+(S);\n\
         template <class real> void f(real *a, real *b, real *w, int n) {{\n\
         #pragma omp target teams distribute parallel for map(to: a[0:{terms}*n], b[0:{terms}*n]) map(from: w[0:n])\n\
           for (int i = 0; i < n; i++) w[i] = ({sum}) * (real)2;\n\
         }}\n"
    );
    let m = lower("chain.cpp", &src);
    let f = m.function(func(&m, "f"));
    // About 15 expressions a term; lowered twice at each operator, 2^20.
    assert!(f.exprs.len() < 20 * terms, "{} expressions", f.exprs.len());
    let named: Vec<&str> = f
        .exprs
        .iter()
        .filter_map(|e| match &e.kind {
            omplens_analysis::ir::ExprKind::Call {
                callee: omplens_analysis::ir::Callee::Named(n),
                ..
            } => Some(n.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        named.contains(&"operator-") && named.contains(&"operator+"),
        "{named:?}"
    );
}
