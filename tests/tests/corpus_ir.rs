//! Snapshot tests of `omplens ir` over the corpus: every program in tests/corpus lowers
//! without a panic, and its IR listing equals the `.ir` file beside it.
//!
//! Update the expectations after an intended change with:
//!     UPDATE_EXPECT=1 cargo test -p omplens-tests --test corpus_ir

use omplens_analysis::frontend::{flags, lower_file};
use omplens_analysis::ide::render_ir;
use omplens_analysis::ir::{Severity, StmtKind};
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Every C and C++ source under `corpus/<sub>`, sorted.
fn sources(sub: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(corpus_dir().join(sub))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "cpp")))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn args_for(path: &Path) -> Vec<String> {
    let extra: Vec<String> = if path.extension().is_some_and(|e| e == "cpp") {
        vec!["-std=c++17".into()]
    } else {
        Vec::new()
    };
    flags::flags_for(path, None, &extra).expect("flags").args
}

fn lower(path: &Path) -> omplens_analysis::ir::Module {
    let args = args_for(path);
    lower_file(path, None, &args).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn check_snapshot(path: &Path, actual: &str, failures: &mut Vec<String>) {
    let snap = PathBuf::from(format!("{}.ir", path.display()));
    if omplens_tests::tier::updating() {
        std::fs::write(&snap, actual).expect("write snapshot");
        return;
    }
    match std::fs::read_to_string(&snap) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => {
            let first = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(expected.lines().count().min(actual.lines().count()));
            failures.push(format!(
                "{}: IR differs from {} at line {}:\n  expected: {}\n  actual:   {}",
                path.display(),
                snap.display(),
                first + 1,
                expected.lines().nth(first).unwrap_or("<end>"),
                actual.lines().nth(first).unwrap_or("<end>"),
            ))
        }
        Err(_) => failures.push(format!(
            "{}: no snapshot {} (run with UPDATE_EXPECT=1)",
            path.display(),
            snap.display()
        )),
    }
}

#[test]
fn corpus_is_large_enough() {
    let n = sources("c").len() + sources("cpp").len();
    assert!(
        n >= 40,
        "the corpus has {n} programs; at least 40 are expected"
    );
}

#[test]
fn corpus_ir_snapshots() {
    let mut failures = Vec::new();
    for sub in ["c", "cpp", "omp52", "broken"] {
        for path in sources(sub) {
            let m = match std::panic::catch_unwind(|| lower(&path)) {
                Ok(m) => m,
                Err(_) => {
                    failures.push(format!("{}: lowering panicked", path.display()));
                    continue;
                }
            };
            check_snapshot(&path, &render_ir(&m), &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Valid programs lower without clang errors, every directive with an associated statement
/// governs one, and every function with a body has one.
#[test]
fn valid_programs_lower_cleanly() {
    let mut failures = Vec::new();
    for sub in ["c", "cpp", "omp52"] {
        for path in sources(sub) {
            let m = lower(&path);
            for d in &m.diagnostics {
                if d.severity == Severity::Error {
                    failures.push(format!(
                        "{}: unexpected error: {}",
                        path.display(),
                        d.message
                    ));
                }
            }
            for d in &m.directives {
                let k = d.directive.kind;
                if k.has_associated_statement() && !k.is_declarative() && d.governs.is_none() {
                    failures.push(format!(
                        "{}: `{}` at offset {} governs no statement",
                        path.display(),
                        k.name(),
                        d.directive.span.start
                    ));
                }
            }
            for f in m.functions.iter().filter(|f| f.has_body) {
                let body = f.body.expect("body");
                if !matches!(f.stmt(body).kind, StmtKind::Compound(_)) {
                    failures.push(format!(
                        "{}: {} body is not a block",
                        path.display(),
                        f.name
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Broken programs produce errors at a position in the file, and still a partial module.
#[test]
fn broken_programs_report_errors() {
    let broken = sources("broken");
    assert!(!broken.is_empty(), "tests/corpus/broken holds no programs");
    for path in broken {
        let m = lower(&path);
        let located = m
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error && d.span.is_some())
            .count();
        assert!(located > 0, "{}: no located error", path.display());
    }
}
