//! The test programs of the repository and how the front end's tests compare lowerings of
//! them (the translation-unit cache and the shared headers must lower as a fresh parse does).

use crate::ir::render_module;
use std::path::{Path, PathBuf};

/// The flags the tests lower a program of the corpora with.
pub(super) fn flags_for(path: &Path) -> Vec<String> {
    let mut flags = Vec::new();
    if path.extension().is_some_and(|e| e == "cpp") {
        flags.push("-std=c++17".to_string());
    }
    if path.components().any(|c| c.as_os_str() == "omp52") {
        flags.push("-fopenmp-version=52".to_string());
    }
    flags
}

/// The programs of tests/check, tests/corpus, tests/fix and tests/coalesce.
pub(super) fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests");
    let mut out = Vec::new();
    let mut dirs = ["check", "corpus", "fix", "coalesce"]
        .map(|d| root.join(d))
        .to_vec();
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).expect("corpus directory").flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "cpp")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Panics, naming `what` and the first difference, unless `got` is the module of a fresh
/// parse, `fresh`.
pub(super) fn assert_same(
    path: &Path,
    what: &str,
    got: &crate::ir::Module,
    fresh: &crate::ir::Module,
) {
    if got != fresh {
        // The text form names the first difference readably.
        let (a, b) = (render_module(got), render_module(fresh));
        let first = a
            .lines()
            .zip(b.lines())
            .find(|(x, y)| x != y)
            .map(|(x, y)| format!("got:   {x}\nfresh: {y}"))
            .unwrap_or_else(|| "the text forms agree; the modules differ".into());
        panic!(
            "{}: {what} differs from a fresh parse\n{first}",
            path.display()
        );
    }
}
