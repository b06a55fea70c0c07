//! The two front doors agree: `omplens lsp` publishes, for every C/C++ program of the corpora,
//! the diagnostics that `omplens check --format json --no-config FILE` reports for it.
//!
//! The programs: every `.c`/`.cc`/`.cpp`/`.cxx` file under tests/check, tests/corpus (with
//! `broken/`, whose programs do not compile: both must report the same findings and the same
//! compile errors there too), tests/fix (inputs, expert versions and fixed snapshots),
//! tests/coalesce, tests/oracle and examples: about 250 programs, half a minute on two cores,
//! in the slow tier (`OMPLENS_SLOW=1`, see `omplens_tests::tier`). The fast tier compares
//! tests/check (the programs with the most findings) and tests/corpus/broken only.
//!
//! - `check` runs once over all of them (the same command with every FILE; its JSON names the
//!   file of each finding), with no configuration file; the server sees none either (the
//!   repository has no `.omplens.toml`, and the test asserts so).
//! - The server runs over stdio (`common::Lsp`), opens each program (a few at a time), takes
//!   its first `publishDiagnostics` and closes it.
//! - Findings are compared as sets of (code, start line/column, end line/column, severity,
//!   message), in LSP terms (0-based lines, UTF-16 columns; `check` writes 1-based lines and
//!   columns in characters, converted with the file's text). The server's diagnostics
//!   without a code that are errors (clang's, the pragma parser's) are compared with the
//!   compile errors `check` prints on stderr (`FILE:LINE:COL: error: MESSAGE`), as (start,
//!   message), when `check` shows all of them.
//!
//! [`KNOWN_DIFFERENCES`] names the (file, code) pairs where the two are known to disagree;
//! the test fails on any other difference, and on a listed one that no longer occurs (remove
//! it then; the fast tier checks only the entries of the programs it compares).

mod common;

use common::{file_uri, repo, Lsp};
use omplens_tests::tier;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The corpora of the fast tier, relative to the repository root.
const FAST_DIRS: [&str; 2] = ["tests/check", "tests/corpus/broken"];

/// The corpora of the slow tier.
const DIRS: [&str; 6] = [
    "tests/check",
    "tests/corpus",
    "tests/fix",
    "tests/coalesce",
    "tests/oracle",
    "examples",
];

/// Programs open in the server at once.
const WINDOW: usize = 4;

/// (file relative to the repository, code or `compile-errors`) where the server and `check`
/// are known to disagree. Each entry must still disagree: a fixed one fails the test until
/// it is removed from here.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// `check` shows at most this many compile errors per file (server/src/commands/check).
const SHOWN_COMPILE_ERRORS: usize = 5;

/// One diagnostic, in LSP terms: (code, start, end, severity, message).
type Diag = (String, (u64, u64), (u64, u64), &'static str, String);
/// One compile error: (start, message).
type CompileError = ((u64, u64), String);

fn sources(dirs: &[&str]) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            panic!("cannot read {}", dir.display())
        };
        for e in rd.filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("c" | "cc" | "cpp" | "cxx")
            ) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for d in dirs {
        walk(&repo().join(d), &mut out);
    }
    out.sort();
    out
}

fn rel(path: &Path) -> String {
    path.strip_prefix(repo())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The UTF-16 column of the `column`-th character (1-based) of line `line` (1-based).
fn utf16(text: &str, line: u64, column: u64) -> (u64, u64) {
    let l = text.split('\n').nth(line as usize - 1).unwrap_or("");
    let units: usize = l
        .chars()
        .take(column as usize - 1)
        .map(char::len_utf16)
        .sum();
    (line - 1, units as u64)
}

fn lsp_severity(d: &Value) -> &'static str {
    match d["severity"].as_u64() {
        Some(1) => "error",
        Some(2) => "warning",
        Some(3) => "info",
        Some(4) => "hint",
        _ => "none",
    }
}

fn pos(p: &Value) -> (u64, u64) {
    (
        p["line"].as_u64().expect("line"),
        p["character"].as_u64().expect("character"),
    )
}

/// What `check` reported for every file: findings and (when all are shown) compile errors.
struct CheckRun {
    findings: BTreeMap<String, BTreeSet<Diag>>,
    /// `None` for a file with more compile errors than `check` shows.
    compile_errors: BTreeMap<String, Option<BTreeSet<CompileError>>>,
}

fn run_check(files: &[PathBuf], texts: &BTreeMap<String, String>) -> CheckRun {
    let out = Command::new(env!("CARGO_BIN_EXE_omplens"))
        .args(["check", "--format", "json", "--no-config"])
        .args(files.iter().map(|f| rel(f)))
        .current_dir(repo())
        .output()
        .expect("run omplens check");
    let stderr = String::from_utf8_lossy(&out.stderr);
    // 0: no errors; 1: error findings (or compile errors) remain. 2: a file was not checked.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "omplens check exited with {}:\n{stderr}",
        out.status
    );
    let json: Value = serde_json::from_slice(&out.stdout).expect("check's JSON");
    let mut findings: BTreeMap<String, BTreeSet<Diag>> = BTreeMap::new();
    for f in json.as_array().expect("a JSON array") {
        let file = f["file"].as_str().expect("file").to_string();
        let text = &texts[&file];
        let at = |p: &Value| {
            utf16(
                text,
                p["line"].as_u64().expect("line"),
                p["column"].as_u64().expect("column"),
            )
        };
        let severity = match f["severity"].as_str() {
            Some("error") => "error",
            Some("warning") => "warning",
            Some("info") => "info",
            Some("hint") => "hint",
            s => panic!("severity {s:?}"),
        };
        findings.entry(file).or_default().insert((
            f["code"].as_str().expect("code").to_string(),
            at(&f["range"]["start"]),
            at(&f["range"]["end"]),
            severity,
            f["message"].as_str().expect("message").to_string(),
        ));
    }
    let mut compile_errors = BTreeMap::new();
    for (file, text) in texts {
        let header = format!("omplens: warning: {file} has ");
        let Some(count) = stderr.lines().find_map(|l| {
            l.strip_prefix(&header)?
                .split_whitespace()
                .next()?
                .parse::<usize>()
                .ok()
        }) else {
            compile_errors.insert(file.clone(), Some(BTreeSet::new()));
            continue;
        };
        if count > SHOWN_COMPILE_ERRORS {
            compile_errors.insert(file.clone(), None);
            continue;
        }
        let placed = format!("{file}:");
        let unplaced = format!("{file}: error: ");
        let errors: BTreeSet<CompileError> = stderr
            .lines()
            .filter_map(|l| {
                if let Some(m) = l.strip_prefix(&unplaced) {
                    return Some(((0, 0), m.to_string()));
                }
                let rest = l.strip_prefix(&placed)?;
                let mut parts = rest.splitn(3, ':');
                let line = parts.next()?.parse().ok()?;
                let column = parts.next()?.parse().ok()?;
                let message = parts.next()?.strip_prefix(" error: ")?;
                Some((utf16(text, line, column), message.to_string()))
            })
            .collect();
        assert_eq!(
            errors.len(),
            count,
            "{file}: could not read its {count} compile errors from check's stderr:\n{stderr}"
        );
        compile_errors.insert(file.clone(), Some(errors));
    }
    CheckRun {
        findings,
        compile_errors,
    }
}

/// The server's first diagnostics of each file: findings (with a code) and error
/// diagnostics without one.
fn run_lsp(
    files: &[PathBuf],
    texts: &BTreeMap<String, String>,
) -> BTreeMap<String, (BTreeSet<Diag>, BTreeSet<CompileError>)> {
    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({}));
    let mut out = BTreeMap::new();
    for chunk in files.chunks(WINDOW) {
        let uris: Vec<(String, String)> = chunk
            .iter()
            .map(|f| {
                let name = rel(f);
                let uri = file_uri(f);
                let lang = if name.ends_with(".c") { "c" } else { "cpp" };
                lsp.open(&uri, lang, 1, &texts[&name]);
                (name, uri)
            })
            .collect();
        for (name, uri) in uris {
            let diags = lsp.diagnostics(&uri, 1);
            let mut findings = BTreeSet::new();
            let mut errors = BTreeSet::new();
            for d in &diags {
                let start = pos(&d["range"]["start"]);
                let message = d["message"].as_str().expect("message").to_string();
                match d["code"].as_str() {
                    Some(code) => {
                        findings.insert((
                            code.to_string(),
                            start,
                            pos(&d["range"]["end"]),
                            lsp_severity(d),
                            message,
                        ));
                    }
                    None if lsp_severity(d) == "error" => {
                        errors.insert((start, message));
                    }
                    None => {}
                }
            }
            lsp.notify(
                "textDocument/didClose",
                json!({"textDocument": {"uri": uri}}),
            );
            out.insert(name, (findings, errors));
        }
    }
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
    out
}

fn show<T: std::fmt::Debug>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|d| format!("      {d:?}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn lsp_and_check_report_the_same_diagnostics() {
    let (dirs, min_files, min_findings): (&[&str], usize, usize) = if tier::slow_enabled() {
        (&DIRS, 200, 150)
    } else {
        tier::note(
            "lsp_check_equivalence",
            "tests/check and tests/corpus/broken only; all corpora with OMPLENS_SLOW=1",
        );
        (&FAST_DIRS, 80, 30)
    };
    // No configuration file anywhere above the corpora: `--no-config` and the server's
    // discovery then see the same (default) configuration.
    for dir in repo().ancestors() {
        assert!(
            !dir.join(".omplens.toml").exists(),
            "{} would configure the server but not check --no-config",
            dir.join(".omplens.toml").display()
        );
    }
    let files = sources(dirs);
    assert!(
        files.len() >= min_files,
        "only {} programs found",
        files.len()
    );
    let texts: BTreeMap<String, String> = files
        .iter()
        .map(|f| (rel(f), std::fs::read_to_string(f).expect("read program")))
        .collect();

    let t = Instant::now();
    let check = run_check(&files, &texts);
    let check_took = t.elapsed();
    let t = Instant::now();
    let lsp = run_lsp(&files, &texts);
    let lsp_took = t.elapsed();

    let mut differences: BTreeMap<(String, String), String> = BTreeMap::new();
    let empty = BTreeSet::new();
    let (mut findings, mut compared_errors) = (0, 0);
    for name in texts.keys() {
        let (l_findings, l_errors) = &lsp[name];
        let c_findings = check.findings.get(name).unwrap_or(&empty);
        findings += c_findings.len();
        let codes: BTreeSet<&String> = l_findings
            .symmetric_difference(c_findings)
            .map(|d| &d.0)
            .collect();
        for code in codes {
            let only = |a: &BTreeSet<Diag>, b: &BTreeSet<Diag>| {
                show(a.difference(b).filter(|d| &d.0 == code))
            };
            differences.insert(
                (name.clone(), code.clone()),
                format!(
                    "    only from the server:\n{}\n    only from check:\n{}",
                    only(l_findings, c_findings),
                    only(c_findings, l_findings)
                ),
            );
        }
        if let Some(c_errors) = &check.compile_errors[name] {
            compared_errors += c_errors.len();
            if c_errors != l_errors {
                differences.insert(
                    (name.clone(), "compile-errors".into()),
                    format!(
                        "    only from the server:\n{}\n    only from check:\n{}",
                        show(l_errors.difference(c_errors)),
                        show(c_errors.difference(l_errors))
                    ),
                );
            }
        }
    }
    eprintln!(
        "{} programs: {findings} findings and {compared_errors} compile errors from check \
         ({check_took:.1?}), the server's in {lsp_took:.1?}; {} (file, code) differences",
        texts.len(),
        differences.len()
    );
    // Not a vacuous comparison: the corpora have hundreds of findings and some errors.
    assert!(
        findings >= min_findings,
        "only {findings} findings in all programs"
    );
    assert!(compared_errors > 0, "no compile errors compared");

    let known: BTreeSet<(String, String)> = KNOWN_DIFFERENCES
        .iter()
        .map(|(f, c)| (f.to_string(), c.to_string()))
        .collect();
    let mut problems = Vec::new();
    for ((file, code), what) in &differences {
        if !known.contains(&(file.clone(), code.clone())) {
            problems.push(format!(
                "{file} {code}: the server and check differ\n{what}"
            ));
        }
    }
    for (file, code) in &known {
        if texts.contains_key(file) && !differences.contains_key(&(file.clone(), code.clone())) {
            problems.push(format!(
                "{file} {code} is listed in KNOWN_DIFFERENCES but the two agree now: remove it"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}
