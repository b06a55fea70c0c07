//! `omplens check` through a compile database reads what functions of the project's other
//! files do (`omplens_analysis::project`): the project of `tests/project/` (see its README).

mod common;

use common::{file_uri, Lsp};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn omplens(dir: &Path, cache: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_omplens"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("OMPLENS_CACHE_DIR", cache)
        .output()
        .expect("run omplens")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `tests/project/` copied into a temporary directory, `@ROOT@` in the database replaced by
/// the copy's path.
fn project() -> (tempfile::TempDir, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/project");
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    for sub in ["src", "build"] {
        std::fs::create_dir_all(root.join(sub)).unwrap();
        for e in std::fs::read_dir(src.join(sub)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), root.join(sub).join(e.file_name())).unwrap();
        }
    }
    let db = root.join("build/compile_commands.json");
    let t = std::fs::read_to_string(&db).unwrap();
    std::fs::write(&db, t.replace("@ROOT@", &root.display().to_string())).unwrap();
    (tmp, root)
}

/// `src/normalize.c` with a `normalize` that only writes `v`.
const WRITES_ONLY: &str = "void normalize(double *v, int n) {\n  for (int i = 0; i < n; i++)\n    v[i] = 1.0 / n;\n}\n\ndouble checksum(const double *v, int n) {\n  double s = 0.0;\n  for (int i = 0; i < n; i++)\n    s += v[i] * (i % 7);\n  return s;\n}\n";

fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("summaries-v3"))
        .map(|d| d.count())
        .unwrap_or(0)
}

#[test]
fn a_callee_in_another_file_of_the_database_is_known_by_what_it_does() {
    let (_tmp, root) = project();
    let cache = tempfile::tempdir().unwrap();
    let check = || omplens(&root, cache.path(), &["check", "-p", "build", "src/main.c"]);
    let o = check();
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    let verbose = omplens(
        &root,
        cache.path(),
        &["check", "-v", "-p", "build", "src/main.c"],
    );
    assert!(
        !text(&verbose.stderr).contains("unknown in"),
        "both callees are known"
    );
    assert!(
        out.contains("src/main.c:21:15: error: `v` is read on the host while its valid copy is on the device"),
        "{out}{err}"
    );
    assert!(!out.contains("has no body in this file"), "{out}");
    assert_eq!(entries(cache.path()), 1, "the summaries of src/normalize.c");
    // The second run reads them from the cache and says the same.
    let again = check();
    assert_eq!(text(&again.stdout), out);
    assert_eq!(entries(cache.path()), 1);

    // A new text of the callee's file is read again: `normalize` now only writes `v`, so
    // the call reads nothing stale (what the region's exit then copies back over it remains).
    std::fs::write(root.join("src/normalize.c"), WRITES_ONLY).unwrap();
    let o = check();
    let out = text(&o.stdout);
    assert!(!out.contains("src/main.c:21:15: error"), "{out}");
    assert_eq!(entries(cache.path()), 2);
}

#[test]
fn without_the_database_the_callees_stay_unseen() {
    let (_tmp, root) = project();
    std::fs::remove_file(root.join("build/compile_commands.json")).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let o = omplens(
        &root,
        cache.path(),
        &["check", "--verbose", "src/main.c", "--", "-fopenmp"],
    );
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    // `normalize` and `checksum` may do anything: nothing is certain, nothing is said...
    assert!(!out.contains("error"), "{out}");
    assert!(err.contains("0 errors"), "{err}");
    // ...but `--verbose` lists what omplens could not see.
    for (at, name) in [("21:5", "normalize"), ("23:20", "checksum")] {
        let note = format!(
            "src/main.c:{at}: note: unknown in `main`: `{name}` has no body in this file nor in another file of the compile database"
        );
        assert!(err.contains(&note), "{note}\n{err}");
    }
    assert_eq!(entries(cache.path()), 0);
}

/// The stale read at the call of `normalize` (line 21), as an error.
fn has_call_error(p: &serde_json::Value) -> bool {
    p["diagnostics"].as_array().is_some_and(|ds| {
        ds.iter().any(|d| {
            d["range"]["start"]["line"] == 20 && d["severity"] == 1 && d["code"] == "OMP101"
        })
    })
}

#[test]
fn the_language_server_reads_a_saved_callee_file_again() {
    let (_tmp, root) = project();
    let cache = tempfile::tempdir().unwrap();
    let cache_dir = cache.path().display().to_string();
    let mut lsp = Lsp::start_with_env(&[("OMPLENS_CACHE_DIR", cache_dir.as_str())]);
    lsp.initialize(
        json!({}),
        json!({"compileCommandsDir": root.join("build").display().to_string()}),
    );
    let main = root.join("src/main.c");
    let uri = file_uri(&main);
    lsp.open(&uri, "c", 1, &std::fs::read_to_string(&main).unwrap());
    let p = lsp.diagnostics_where(&uri, |p| p["version"] == 1);
    assert!(has_call_error(&p), "{p}");
    // The editor saves a new `normalize` that only writes: the open file's diagnostics
    // follow without an edit of their own.
    let callee = root.join("src/normalize.c");
    std::fs::write(&callee, WRITES_ONLY).unwrap();
    lsp.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": file_uri(&callee)}}),
    );
    let p = lsp.diagnostics_where(&uri, |p| !has_call_error(p));
    assert_eq!(p["version"], 1, "{p}");
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}
