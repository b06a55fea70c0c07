//! `semantics::unknowns` on lowered programs (here: it needs the front end, a higher layer).

use omplens_analysis::ir::Module;
use omplens_analysis::semantics::unknowns::unknowns;

fn lowered(name: &str, text: &str) -> Module {
    omplens_analysis::frontend::lower_file(std::path::Path::new(name), Some(text), &[]).unwrap()
}

#[test]
fn unseen_callees_dependent_calls_and_pointers_are_listed_once_per_function() {
    let m = lowered(
        "u.cpp",
        "void ext(double *v);\ntemplate <class T> void run(T &t, double *v) {\n  t.go(v);\n  helper(t, v);\n}\nvoid call(void (*fp)(double *), double *v) {\n  fp(v);\n  ext(v);\n  ext(v);\n  auto k = [v] { v[0] = 1; };\n  k();\n}\n",
    );
    let got: Vec<(String, String)> = unknowns(&m)
        .into_iter()
        .map(|u| {
            let line = u.span.map_or(0, |s| m.line_col(s.start).0);
            (format!("{}:{line}", m.function(u.function).name), u.what)
        })
        .collect();
    let has = |f: &str, w: &str| got.iter().any(|(g, what)| g == f && what.contains(w));
    assert!(
        // (libclang does not spell the member of a dependent object; the text does.)
        has(
            "run:3",
            "the call of member `go` depends on a template parameter"
        ),
        "{got:?}"
    );
    assert!(
        has("run:4", "`helper` depends on a template parameter"),
        "{got:?}"
    );
    assert!(has("call:7", "through a function pointer"), "{got:?}");
    assert!(has("call:8", "`ext` has no body"), "{got:?}");
    assert_eq!(
        got.iter().filter(|(_, w)| w.contains("`ext`")).count(),
        1,
        "{got:?}"
    );
    // `k` is only called: its body is followed at the call, so it is no unknown.
    assert_eq!(got.len(), 4, "{got:?}");
}

#[test]
fn a_lambda_that_is_not_only_called_is_an_unknown() {
    let m = lowered(
        "l.cpp",
        "void g(double *v) {\n  auto k = [v] { v[0] = 1; };\n  auto q = k;\n  q();\n}\n",
    );
    let got: Vec<String> = unknowns(&m).into_iter().map(|u| u.what).collect();
    assert!(
        got.iter()
            .any(|w| w.contains("a lambda (its body is not analysed)")),
        "{got:?}"
    );
}
