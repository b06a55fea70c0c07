//! Rapid edits of a large file over a real stdio connection: a newer edit cancels the
//! running analysis of an older version (salsa cancellation, logged on stderr), and only the
//! latest version's diagnostics are published.

mod common;

use common::{diagnostics_within, file_uri, generated, Lsp};
use serde_json::{json, Value};
use std::time::Duration;

/// The debug build on a loaded 2-core machine: a cold analysis of 5,000 lines is slow.
const LIMIT: Duration = Duration::from_secs(240);

fn published(lsp: &mut Lsp, uri: &str, version: i32) -> Vec<Value> {
    diagnostics_within(lsp, uri, version, LIMIT)
}

fn kernel_statement(text: &str) -> (u64, u64) {
    let lines: Vec<&str> = text.lines().collect();
    let at = (lines.len() / 2..lines.len())
        .find(|&i| lines[i].contains("#pragma omp target teams distribute parallel for"))
        .expect("a kernel after the middle")
        + 2;
    let col = lines[at].find(';').expect("a statement in the kernel body");
    (at as u64, col as u64)
}

/// Inserts ` + 0.0` before the `;` (even versions) or removes it again (odd versions).
fn toggle(at: u64, col: u64, version: i32) -> Value {
    if version % 2 == 0 {
        json!([{"range": {"start": {"line": at, "character": col},
                          "end": {"line": at, "character": col}}, "text": " + 0.0"}])
    } else {
        json!([{"range": {"start": {"line": at, "character": col},
                          "end": {"line": at, "character": col + 6}}, "text": ""}])
    }
}

#[test]
fn rapid_edits_cancel_stale_analyses_and_publish_the_last_version_only() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = generated(dir.path(), "large.cpp", 5000);
    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({"debounceMs": 0}));
    let uri = file_uri(&path);
    lsp.open(&uri, "cpp", 1, &text);
    let first = published(&mut lsp, &uri, 1);
    assert!(!first.is_empty(), "the generated file has findings");

    // Edits inside one kernel body, 30 ms apart: each arrives while the analysis of the
    // previous version runs (a reparse and lowering of 5,000 lines takes far longer in the
    // debug build). ` + 0.0` is inserted and removed in turn: the last text is the first.
    let (at, col) = kernel_statement(&text);
    let last = 7;
    for version in 2..=last {
        lsp.change(&uri, version, toggle(at, col, version));
        std::thread::sleep(Duration::from_millis(30));
    }
    let final_diagnostics = published(&mut lsp, &uri, last);
    assert_eq!(
        final_diagnostics, first,
        "the last text is the first: the same diagnostics"
    );
    // Anything still in flight would be published within this pause.
    let stray = lsp.wait_for_within("a stray publication", Duration::from_secs(2), |m| {
        m["method"] == "textDocument/publishDiagnostics"
    });
    assert!(
        stray.is_none(),
        "published after the last version: {stray:?}"
    );
    let versions: Vec<Value> = lsp
        .received(|m| m["method"] == "textDocument/publishDiagnostics")
        .iter()
        .map(|m| m["params"]["version"].clone())
        .collect();
    assert!(
        versions.is_empty(),
        "diagnostics published for superseded versions {versions:?}"
    );

    let stderr = lsp.stderr();
    for l in stderr.lines().filter(|l| l.contains("cancelled")) {
        eprintln!("{l}");
    }
    let interrupted: Vec<i32> = (2..last)
        .filter(|v| {
            stderr.contains(&format!(
                "omplens: analysis of version {v} of {uri} cancelled (a newer edit interrupted it)"
            ))
        })
        .collect();
    assert!(
        !interrupted.is_empty(),
        "no running analysis was cancelled; stderr:\n{stderr}"
    );
    assert!(
        !stderr.contains(&format!("analysis of version {last} of")),
        "the last version's analysis must not be cancelled; stderr:\n{stderr}"
    );
    assert!(lsp.shutdown_and_exit().success());
}

/// An edit of one file cancels the running analysis of another file too (any write cancels
/// every running query); that analysis is still current, so it runs again and publishes.
#[test]
fn an_analysis_cancelled_by_another_file_is_retried() {
    let dir = tempfile::tempdir().unwrap();
    let (a_path, text) = generated(dir.path(), "a.cpp", 5000);
    let b_path = dir.path().join("b.cpp");
    std::fs::write(&b_path, &text).unwrap();
    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({"debounceMs": 0}));
    let (a, b) = (file_uri(&a_path), file_uri(&b_path));
    lsp.open(&a, "cpp", 1, &text);
    let first = published(&mut lsp, &a, 1);
    // `b` is analysed from scratch (seconds in the debug build) while `a` is edited.
    lsp.open(&b, "cpp", 1, &text);
    let (at, col) = kernel_statement(&text);
    std::thread::sleep(Duration::from_millis(100));
    for version in 2..=5 {
        lsp.change(&a, version, toggle(at, col, version));
        std::thread::sleep(Duration::from_millis(150));
    }
    // Same text, same findings (related locations name their own file).
    let of_b = Value::Array(published(&mut lsp, &b, 1)).to_string();
    let of_a = Value::Array(first.clone()).to_string();
    assert!(
        of_b.replace(b.as_str(), a.as_str()) == of_a,
        "b.cpp's diagnostics differ from a.cpp's"
    );
    assert_eq!(published(&mut lsp, &a, 5), first);
    let stderr = lsp.stderr();
    assert!(
        !stderr.contains(&format!("of {b} cancelled")),
        "b.cpp is current: its analysis is retried, not dropped; stderr:\n{stderr}"
    );
    assert!(lsp.shutdown_and_exit().success());
}
