//! Snapshots of every finding of the programs of tests/check/, in full: for each program
//! `NAME.c` (or `.cpp`), `NAME.snap` beside it holds what `check::check` finds — code,
//! severity, range (`line:col-line:col`, 1-based, columns in bytes), message, related
//! locations with their messages, bytes and multiplier, and each fix's title with the fixed
//! text as a unified diff. `UPDATE_EXPECT=1` rewrites the snapshots.
//!
//! The `.expect` files (tests/tests/check_corpus.rs) say which findings are right; the
//! snapshots pin how they read. Fast: libclang only, no clang-19 oracle. The programs of one
//! rule are listed in the `## Tests` section of its page (tests/tests/rule_docs.rs).

use omplens_analysis::check::{self, Finding};
use omplens_analysis::frontend::{flags, lower_file};
use omplens_analysis::ir::Span;
use omplens_analysis::text::{self, TextEdit};
use omplens_tests::fix_programs::{files_of, parallel_map, programs_with, split_name, Program};
use omplens_tests::snapshot;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn check_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("check")
}

fn snap_path(p: &Program) -> PathBuf {
    p.dir.join(format!("{}.snap", p.name))
}

/// 1-based line and byte column of `offset` in `text`.
fn line_col(text: &str, offset: u32) -> (usize, usize) {
    let before = &text[..(offset as usize).min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before.len() - line_start + 1,
    )
}

fn range(text: &str, span: Span) -> String {
    let (l1, c1) = line_col(text, span.start);
    let (l2, c2) = line_col(text, span.end);
    format!("{l1}:{c1}-{l2}:{c2}")
}

fn render_finding(out: &mut String, file: &str, text: &str, f: &Finding) {
    let _ = writeln!(
        out,
        "{} {} {}: {}",
        f.code,
        f.severity.name(),
        range(text, f.span),
        f.message
    );
    for r in &f.related {
        // A place in a project header: the header's file name and range too.
        let header = r.header.as_ref().map_or(String::new(), |h| {
            format!(
                " (in {} {})",
                Path::new(&h.header.path)
                    .file_name()
                    .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
                range(&h.header.text, h.span)
            )
        });
        let _ = writeln!(
            out,
            "  related {}{header}: {}",
            range(text, r.span),
            r.message
        );
    }
    if let Some(b) = f.bytes {
        let _ = writeln!(out, "  bytes {b}");
    }
    if let Some(m) = f.multiplier {
        let estimated = if m.estimated { " (estimated)" } else { "" };
        let _ = writeln!(out, "  times {}{estimated}", m.times);
    }
    for fix in &f.fixes {
        let _ = writeln!(out, "  fix: {}", fix.title);
        let mut edits: Vec<TextEdit> = fix.edits.clone();
        edits.sort_by_key(|e| (e.start, e.end));
        let fixed = text::apply(text, &edits);
        let diff = text::unified_diff(file, file, text, &fixed);
        if diff.is_empty() {
            let _ = writeln!(out, "    (no change)");
        }
        for line in diff.lines() {
            let _ = writeln!(out, "    {line}");
        }
    }
}

/// The snapshot of one program.
fn render(p: &Program) -> Result<String, String> {
    let path = p.input();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("read: {e}"))?;
    let extra: Vec<String> = if p.ext == "cpp" {
        vec!["-std=c++17".into()]
    } else {
        Vec::new()
    };
    let args = flags::flags_for(&path, None, &extra)
        .map_err(|e| format!("compile flags: {e}"))?
        .args;
    let module = lower_file(&path, Some(&text), &args).map_err(|e| format!("lowering: {e}"))?;
    let findings = check::check(&module, &text);
    let file = p.file_name();
    let mut out = format!(
        "# `omplens check` findings of {file} (before suppressions and configuration).\n\
         # Generated: UPDATE_EXPECT=1 cargo test -p omplens-tests --test rule_snapshots\n"
    );
    if findings.is_empty() {
        out.push_str("(no findings)\n");
    }
    for f in &findings {
        out.push('\n');
        render_finding(&mut out, &file, &text, f);
    }
    Ok(out)
}

#[test]
fn findings_match_snapshots() {
    let dir = check_dir();
    let programs = programs_with(&dir, None).expect("tests/check");
    assert!(!programs.is_empty(), "no programs in {}", dir.display());
    let results = parallel_map(&programs, |p| {
        render(p).and_then(|r| snapshot::check(&snap_path(p), &r))
    });
    let failures: Vec<String> = programs
        .iter()
        .zip(results)
        .filter_map(|(p, r)| r.err().map(|e| format!("{}: {e}", p.file_name())))
        .collect();
    // A snapshot whose program is gone is stale too.
    let orphans: Vec<String> = files_of(&dir)
        .expect("tests/check")
        .into_iter()
        .filter(|f| {
            matches!(split_name(f), Some((name, middle, "snap"))
                if middle.is_empty() && !programs.iter().any(|p| p.name == name))
        })
        .collect();
    assert!(
        failures.is_empty() && orphans.is_empty(),
        "{} of {} snapshots differ:\n{}\nsnapshots without a program: {orphans:?}",
        failures.len(),
        programs.len(),
        failures.join("\n")
    );
}

#[test]
fn a_finding_renders_in_full() {
    use omplens_analysis::check::{Code, Fix, Multiplier, Related, Severity};
    let text = "int a;\nint b;\n";
    let f = Finding {
        code: Code::OMP205,
        severity: Severity::Warning,
        span: Span::new(7, 12),
        message: "msg".into(),
        related: vec![Related {
            span: Span::new(0, 5),
            message: "rel".into(),
            header: None,
        }],
        fixes: vec![Fix {
            title: "rename".into(),
            edits: vec![TextEdit {
                start: 11,
                end: 12,
                text: "c".into(),
            }],
        }],
        bytes: Some(8),
        multiplier: Some(Multiplier {
            times: 4,
            estimated: true,
        }),
    };
    let mut out = String::new();
    render_finding(&mut out, "t.c", text, &f);
    let expected = "\
OMP205 warning 2:1-2:6: msg
  related 1:1-1:6: rel
  bytes 8
  times 4 (estimated)
  fix: rename
    --- a/t.c
    +++ b/t.c
    @@ -1,2 +1,2 @@
     int a;
    -int b;
    +int c;
";
    assert_eq!(out, expected);
}
