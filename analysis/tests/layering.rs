//! The layering of `omplens-analysis`, enforced: every `crate::X` path in a module's code
//! (comments aside) must name a module below it in [`LAYERS`]; peers of the analysis layer
//! use each other only through what the other exports at its root (`crate::plan::plan`, not
//! `crate::plan::synth::...`); and no two submodules of one module import each other, directly
//! or round a cycle. ARCHITECTURE.md describes the layers; change both together.
//!
//! The parser is deliberately simple: it reads `crate::NAME` and `super::NAME` tokens in code
//! lines. `tests` modules inside a file count too (a test that needs a higher layer belongs in
//! `analysis/tests/`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// In a module's list: it may use every module listed before it.
const ALL_BELOW: &str = "*";

/// Whether `module` may use `target` (both in [`LAYERS`]).
fn may_use(module: &str, target: &str) -> bool {
    let at = |m: &str| LAYERS.iter().position(|(n, _)| *n == m);
    let Some((_, may)) = LAYERS.iter().find(|(n, _)| *n == module) else {
        return false;
    };
    may.contains(&target) || (may.contains(&ALL_BELOW) && at(target) < at(module))
}

/// Each top-level module with the modules it may use. Order is bottom-up.
const LAYERS: &[(&str, &[&str])] = &[
    ("budget", &[]),
    ("text", &["budget"]),
    ("pragma", &["budget", "text"]),
    ("rewrite", &["budget", "text", "pragma"]),
    ("ir", &["budget", "text", "pragma"]),
    ("frontend", &["budget", "text", "pragma", "ir"]),
    ("semantics", &["budget", "text", "pragma", "ir"]),
    // The analyses. check composes plan (synthesized fixes) and coalesce (OMP301/302).
    (
        "plan",
        &["budget", "text", "pragma", "rewrite", "ir", "semantics"],
    ),
    (
        "coalesce",
        &["budget", "text", "pragma", "rewrite", "ir", "semantics"],
    ),
    (
        "check",
        &[
            "budget",
            "text",
            "pragma",
            "rewrite",
            "ir",
            "semantics",
            "plan",
            "coalesce",
        ],
    ),
    (
        "view",
        &["budget", "text", "pragma", "ir", "semantics", "check"],
    ),
    // Other translation units: parsed (frontend), summarised (semantics), and what their
    // functions that map data leave of it (check).
    (
        "project",
        &[
            "budget",
            "text",
            "pragma",
            "ir",
            "frontend",
            "semantics",
            "check",
        ],
    ),
    // The incremental engine and the front door: everything below them.
    ("db", &[ALL_BELOW]),
    ("ide", &[ALL_BELOW]),
];

/// Modules of the analysis layer: they may use each other only through their roots.
const PEERS: &[&str] = &["plan", "coalesce", "check"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file of a top-level module (`NAME.rs` or the tree under `NAME/`).
fn files_of(module: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let file = src().join(format!("{module}.rs"));
    if file.is_file() {
        out.push(file);
    }
    let dir = src().join(module);
    if dir.is_dir() {
        walk(&dir, &mut out);
    }
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without comments (line comments, and doc comments with them).
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let code = match l.find("//") {
                Some(at) => &l[..at],
                None => l,
            };
            (!code.trim().is_empty()).then(|| (i + 1, code.to_string()))
        })
        .collect()
}

/// The identifiers that follow `prefix` (`crate::`, `super::`) on a line, with what follows
/// them (`crate::plan::synth` gives ("plan", Some("synth"))).
fn paths_after<'a>(line: &'a str, prefix: &str) -> Vec<(&'a str, Option<&'a str>)> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(prefix) {
        // `omplens_crate::x` or `my_super::x` are not ours.
        let before = rest[..at].chars().next_back();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let ident = |s: &'a str| -> &'a str {
            let end = s
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(s.len());
            &s[..end]
        };
        let first = ident(rest);
        let after = &rest[first.len()..];
        let second = after
            .strip_prefix("::")
            .map(ident)
            .filter(|s| !s.is_empty());
        if !first.is_empty() {
            out.push((first, second));
        }
    }
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(src())
        .map(|r| r.display().to_string())
        .unwrap_or_else(|_| p.display().to_string())
}

/// The direct submodules of a top-level module: `NAME/X.rs` and `NAME/X/` (not `mod.rs`).
fn submodules(module: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let Ok(entries) = std::fs::read_dir(src().join(module)) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        match name {
            Some(n) if n != "mod" && (p.is_dir() || p.extension().is_some_and(|x| x == "rs")) => {
                out.insert(n);
            }
            _ => {}
        }
    }
    out
}

/// Every violation of the layering in the source tree, one line each.
fn violations() -> Vec<String> {
    let allowed: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut out = Vec::new();
    // Every top-level module is in the table.
    for e in std::fs::read_dir(src()).into_iter().flatten().flatten() {
        let p = e.path();
        let Some(name) = p.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            continue;
        };
        if name == "lib" || !(p.is_dir() || p.extension().is_some_and(|x| x == "rs")) {
            continue;
        }
        if !allowed.contains_key(name.as_str()) {
            out.push(format!("{name}: a top-level module missing from LAYERS"));
        }
    }
    for (module, _) in LAYERS {
        for file in files_of(module) {
            for (line, code) in code_lines(&file) {
                for (target, item) in paths_after(&code, "crate::") {
                    if target == *module || !allowed.contains_key(target) {
                        continue;
                    }
                    if !may_use(module, target) {
                        out.push(format!(
                            "{}:{line}: {module} uses crate::{target} (not below it)",
                            rel(&file)
                        ));
                        continue;
                    }
                    if PEERS.contains(module) && PEERS.contains(&target) {
                        if let Some(item) = item {
                            if submodules(target).contains(item) {
                                out.push(format!(
                                    "{}:{line}: {module} reaches into crate::{target}::{item} \
                                     (peers use each other's root exports only)",
                                    rel(&file)
                                ));
                            }
                        }
                    }
                }
            }
        }
        out.extend(submodule_cycles(module));
    }
    out
}

/// Cycles among the direct submodules of `module`, from `crate::module::X` paths anywhere
/// in a submodule and `super::X` paths in its top file.
fn submodule_cycles(module: &str) -> Vec<String> {
    let subs = submodules(module);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in &subs {
        let mut files = Vec::new();
        let (file, dir) = (
            src().join(module).join(format!("{s}.rs")),
            src().join(module).join(s),
        );
        // The files whose `super::` is `module`: `module/s.rs` and `module/s/mod.rs`.
        let mut top = Vec::new();
        if file.is_file() {
            files.push(file.clone());
            top.push(file);
        }
        if dir.is_dir() {
            walk(&dir, &mut files);
            top.push(dir.join("mod.rs"));
        }
        let prefix = format!("crate::{module}::");
        for f in &files {
            for (_, code) in code_lines(f) {
                let mut found: Vec<&str> = paths_after(&code, &prefix)
                    .into_iter()
                    .map(|(x, _)| x)
                    .collect();
                if top.contains(f) {
                    found.extend(paths_after(&code, "super::").into_iter().map(|(x, _)| x));
                }
                for t in found {
                    if t != s && subs.contains(t) {
                        edges.entry(s.clone()).or_default().insert(t.to_string());
                    }
                }
            }
        }
    }
    find_cycles(&edges)
        .into_iter()
        .map(|c| format!("{module}: import cycle {}", c.join(" -> ")))
        .collect()
}

/// One cycle per strongly connected set found by depth-first search (enough to report).
fn find_cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn dfs(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        out: &mut Vec<Vec<String>>,
    ) {
        if let Some(at) = stack.iter().position(|s| s == n) {
            let mut c = stack[at..].to_vec();
            c.push(n.to_string());
            out.push(c);
            return;
        }
        if done.contains(n) {
            return;
        }
        stack.push(n.to_string());
        for m in edges.get(n).into_iter().flatten() {
            dfs(m, edges, stack, done, out);
        }
        stack.pop();
        done.insert(n.to_string());
    }
    let mut out = Vec::new();
    let mut done = BTreeSet::new();
    for n in edges.keys() {
        dfs(n, edges, &mut Vec::new(), &mut done, &mut out);
    }
    out
}

#[test]
fn arrows_point_down() {
    let v = violations();
    assert!(
        v.is_empty(),
        "{} layering violation(s) (see ARCHITECTURE.md, Layers):\n{}",
        v.len(),
        v.join("\n")
    );
}

#[test]
fn the_checker_sees_what_it_must() {
    // The parser finds paths in code and not in comments, and not in other crates' paths.
    assert_eq!(
        paths_after("use crate::plan::synth::{a, b};", "crate::"),
        vec![("plan", Some("synth"))]
    );
    assert_eq!(paths_after("x = omplens_crate::y;", "crate::"), vec![]);
    let cycles = find_cycles(&BTreeMap::from([
        ("a".to_string(), BTreeSet::from(["b".to_string()])),
        ("b".to_string(), BTreeSet::from(["a".to_string()])),
    ]));
    assert_eq!(cycles, vec![vec!["a", "b", "a"]]);
    assert!(may_use("ide", "db") && may_use("db", "check") && !may_use("db", "ide"));
    assert!(may_use("check", "plan") && !may_use("plan", "check"));
    // Every module named in LAYERS exists, and each may use only modules listed before it.
    for (i, (m, may)) in LAYERS.iter().enumerate() {
        assert!(!files_of(m).is_empty(), "{m} has no files");
        for d in may.iter().filter(|d| **d != ALL_BELOW) {
            let below = LAYERS[..i].iter().any(|(n, _)| n == d);
            assert!(below, "{m} may use {d}, which is not listed below it");
        }
    }
}
