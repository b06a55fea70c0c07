//! The edits `omplens lsp` offers, judged by the host-offload oracle (clang-19 with real host
//! offloading, `omplens_tests::oracle`): for a few programs, every quick fix of every
//! diagnostic, the "whole file" data-mapping action and the planned-update action are applied
//! to the text the server holds, and the result must be oracle-correct (same output as its
//! sequential build, no unmapped data). Fixes of waste must also move no more bytes than
//! the program did. Slow tier (`OMPLENS_SLOW=1`, see `omplens_tests::tier`); there a missing
//! clang-19 or libomptarget fails the test (scripts/bootstrap.sh installs them).

mod common;

use common::{apply_edits, edits_of, file_uri, repo, Lsp};
use omplens_tests::fix_programs::parallel_map;
use omplens_tests::{oracle, tier};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// An edit to judge: the program it came from, what it is, the edited text.
struct Candidate {
    source: PathBuf,
    what: String,
    text: String,
    /// A fix of wasted copies: must not move more bytes than the original.
    waste: bool,
}

fn actions_at(lsp: &mut Lsp, uri: &str, range: &Value, diags: Vec<Value>) -> Vec<Value> {
    lsp.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": range, "context": {"diagnostics": diags}}),
    )
    .as_array()
    .cloned()
    .unwrap_or_default()
}

/// Every quick fix of every diagnostic of `path`, and the refactorings at `cursor_lines`
/// (0-based) whose title contains one of `refactor_titles`.
fn candidates(
    lsp: &mut Lsp,
    path: &Path,
    cursor_lines: &[u64],
    refactor_titles: &[&str],
) -> Vec<Candidate> {
    let text = std::fs::read_to_string(path).unwrap();
    let uri = file_uri(path);
    lsp.open(&uri, "c", 1, &text);
    let diags = lsp.diagnostics(&uri, 1);
    let waste = path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("waste_"));
    let mut out = Vec::new();
    for d in &diags {
        for a in actions_at(lsp, &uri, &d["range"], vec![d.clone()]) {
            if a["kind"] != "quickfix" {
                continue;
            }
            let (edits, _) = edits_of(&a["edit"], &uri);
            out.push(Candidate {
                source: path.to_path_buf(),
                what: format!(
                    "{} (line {})",
                    a["title"].as_str().unwrap_or(""),
                    d["range"]["start"]["line"].as_u64().unwrap() + 1
                ),
                text: apply_edits(&text, &edits),
                waste,
            });
        }
    }
    for &line in cursor_lines {
        let range =
            json!({"start": {"line": line, "character": 2}, "end": {"line": line, "character": 2}});
        for a in actions_at(lsp, &uri, &range, Vec::new()) {
            let title = a["title"].as_str().unwrap_or("");
            if a["kind"] == "quickfix" || !refactor_titles.iter().any(|t| title.contains(t)) {
                continue;
            }
            let (edits, _) = edits_of(&a["edit"], &uri);
            out.push(Candidate {
                source: path.to_path_buf(),
                what: format!("{title} (cursor on line {})", line + 1),
                text: apply_edits(&text, &edits),
                waste,
            });
        }
    }
    lsp.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    out
}

fn judge(c: &Candidate) -> Result<(), String> {
    let name = c.source.file_name().unwrap();
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let edited = dir.path().join(name);
    std::fs::write(&edited, &c.text).map_err(|e| e.to_string())?;
    let include = c.source.parent().unwrap().display().to_string();
    let flags = ["-I", include.as_str()];
    let fail = |why: String| {
        format!(
            "{} — {}: {why}\n--- edited program\n{}",
            c.source.display(),
            c.what,
            c.text
        )
    };
    let v = oracle::check(&edited, &flags).map_err(|e| fail(e.to_string()))?;
    if !v.is_correct() {
        return Err(fail(v.summary()));
    }
    if c.waste {
        let before = oracle::run_offload(&c.source, &flags).map_err(|e| fail(e.to_string()))?;
        if v.offload.total_bytes() > before.total_bytes() {
            return Err(fail(format!(
                "moves more bytes than before: {} > {}",
                v.offload.total_bytes(),
                before.total_bytes()
            )));
        }
    }
    Ok(())
}

#[test]
fn offered_edits_pass_the_oracle() {
    let test = "lsp_oracle::offered_edits_pass_the_oracle";
    if !(tier::slow(test) && oracle::gate(test)) {
        return;
    }
    let check = repo().join("tests/check");
    let fix = repo().join("tests/fix");
    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({}));
    let mut all = Vec::new();
    for name in [
        "lost_scalar_bug.c",
        "unmapped_malloc_bug.c",
        "host_write_stale_bug.c",
        "from_read_bug.c",
        "waste_update_redundant.c",
    ] {
        all.extend(candidates(&mut lsp, &check.join(name), &[], &[]));
    }
    // Programs without mappings: the whole-file action, and on line 18 of
    // conditional_host_update.c (`u[0] += 32.0;`) the planned update.
    all.extend(candidates(
        &mut lsp,
        &fix.join("back_to_back.c"),
        &[16],
        &["whole file", "target data region in"],
    ));
    all.extend(candidates(
        &mut lsp,
        &fix.join("conditional_host_update.c"),
        &[17],
        &["whole file", "Insert `target update from(u[0:1])`"],
    ));
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));

    let titles: Vec<String> = all.iter().map(|c| c.what.clone()).collect();
    // Each program contributed what it should (a program whose fix disappeared would
    // otherwise pass silently).
    for needle in [
        "map(tofrom: count)",
        "target update to(a)",
        "whole file",
        "target data region in `main`",
        "Insert `target update from(u[0:1])` before line 18",
        "remove the redundant",
    ] {
        assert!(
            titles.iter().any(|t| t.contains(needle)),
            "no edit titled like {needle:?} among {titles:#?}"
        );
    }
    // Identical edits (one plan offered from several diagnostics) are judged once.
    let mut seen = std::collections::HashSet::new();
    all.retain(|c| seen.insert((c.source.clone(), c.text.clone())));
    // A control: the unfixed program must fail, or the oracle judges nothing.
    let control = check.join("lost_scalar_bug.c");
    let unfixed = Candidate {
        text: std::fs::read_to_string(&control).unwrap(),
        source: control,
        what: "no edit".into(),
        waste: false,
    };
    assert!(
        judge(&unfixed).is_err(),
        "the oracle accepts the buggy program"
    );
    let failures: Vec<String> = parallel_map(&all, judge)
        .into_iter()
        .filter_map(Result::err)
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} edits fail the oracle:\n\n{}",
        failures.len(),
        all.len(),
        failures.join("\n\n")
    );
}
