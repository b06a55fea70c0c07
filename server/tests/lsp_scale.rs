//! `omplens lsp` at scale, over a real stdio connection: a 50,000-line file is analysed and
//! edited, and the server's memory stays bounded while many files are opened and closed.
//! Both take minutes in a debug build: slow tier (`OMPLENS_SLOW=1`, see `omplens_tests::tier`).

mod common;

use common::{diagnostics_within, file_uri, generated, repo, Lsp};
use omplens_tests::tier;
use serde_json::json;
use std::time::{Duration, Instant};

/// Generous: the tests run the debug build, on a loaded 2-core CI machine.
const LARGE_LIMIT: Duration = Duration::from_secs(240);

#[test]
fn fifty_thousand_line_file_is_analysed_and_edited() {
    if !tier::slow("lsp_scale::fifty_thousand_line_file_is_analysed_and_edited") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = generated(dir.path(), "large.cpp", 50_000);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 50_000, "{} lines", lines.len());

    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({}));
    let uri = file_uri(&path);
    let t = Instant::now();
    lsp.open(&uri, "cpp", 1, &text);
    let first = diagnostics_within(&mut lsp, &uri, 1, LARGE_LIMIT);
    let cold = t.elapsed();
    // The generated modules repeat a few wasteful shapes: hundreds of findings, no errors
    // (the file compiles and its mappings are correct).
    assert!(first.len() >= 100, "{} diagnostics", first.len());
    assert!(
        first.iter().all(|d| d["severity"] != 1),
        "an error on a correct program: {:?}",
        first.iter().find(|d| d["severity"] == 1)
    );
    let last_line = first
        .iter()
        .filter_map(|d| d["range"]["start"]["line"].as_u64())
        .max()
        .unwrap();
    assert!(last_line > 40_000, "findings reach line {last_line} only");

    // One edit inside a kernel body in the middle of the file.
    let at = (lines.len() / 2..lines.len())
        .find(|&i| lines[i].contains("#pragma omp target teams distribute parallel for"))
        .expect("a kernel after the middle")
        + 2;
    let col = lines[at].find(';').expect("a statement in the kernel body") as u64;
    let t = Instant::now();
    lsp.change(
        &uri,
        2,
        json!([{"range": {"start": {"line": at, "character": col}, "end": {"line": at, "character": col}},
                "text": " + 1.0"}]),
    );
    let second = diagnostics_within(&mut lsp, &uri, 2, LARGE_LIMIT);
    let edit = t.elapsed();
    assert_eq!(
        second.len(),
        first.len(),
        "an edit inside one kernel body changed the number of findings"
    );
    // Hover answers at the far end of the file.
    let hover = lsp.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": last_line, "character": 0}}),
    );
    assert!(
        hover.is_null() || hover.get("contents").is_some(),
        "{hover}"
    );
    eprintln!(
        "50,000-line file ({} lines): first diagnostics {cold:?}, after an edit {edit:?}, {} findings",
        lines.len(),
        first.len()
    );
    assert!(lsp.shutdown_and_exit().success());
}

/// Every `.c` program of tests/check, opened under a new path in each round and closed again.
#[test]
fn memory_stays_bounded_while_files_are_opened_and_closed() {
    if !tier::slow("lsp_scale::memory_stays_bounded_while_files_are_opened_and_closed") {
        return;
    }
    let programs: Vec<(String, String)> = std::fs::read_dir(repo().join("tests/check"))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "c").then(|| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&p).unwrap())
            })
        })
        .take(24)
        .collect();
    assert!(programs.len() >= 20, "{} programs", programs.len());
    let dir = tempfile::tempdir().unwrap();
    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({}));
    let round = |lsp: &mut Lsp, r: usize| {
        for (name, text) in &programs {
            let path = dir.path().join(format!("r{r}_{name}"));
            std::fs::write(&path, text).unwrap();
            let uri = file_uri(&path);
            lsp.open(&uri, "c", 1, text);
            diagnostics_within(lsp, &uri, 1, Duration::from_secs(60));
            // What the editor asks for besides diagnostics (computes the view and plan).
            lsp.call(
                "textDocument/inlayHint",
                json!({"textDocument": {"uri": uri},
                       "range": {"start": {"line": 0, "character": 0}, "end": {"line": 10000, "character": 0}}}),
            );
            lsp.notify(
                "textDocument/didClose",
                json!({"textDocument": {"uri": uri}}),
            );
            diagnostics_where_empty(lsp, &uri);
        }
    };
    // Warm-up rounds: allocator pools, salsa's tables and libclang's caches reach their size.
    for r in 0..3 {
        round(&mut lsp, r);
    }
    let warm = lsp.rss_kib();
    let rounds: usize = std::env::var("OMPLENS_TEST_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    for r in 3..3 + rounds {
        round(&mut lsp, r);
        eprintln!("round {r}: RSS {} KiB", lsp.rss_kib());
    }
    let after = lsp.rss_kib();
    eprintln!(
        "RSS after 3 rounds {} KiB, after {} more rounds of {} open/close cycles {} KiB",
        warm,
        rounds,
        programs.len(),
        after
    );
    // Unbounded growth (a file's analysis kept after its close) would add a share of each
    // round: 12 rounds must not grow the server by more than a quarter plus 16 MiB of noise.
    assert!(
        after <= warm + warm / 4 + 16 * 1024,
        "the server grew from {warm} KiB to {after} KiB over {rounds} rounds"
    );
    assert!(lsp.shutdown_and_exit().success());
}

/// Waits for the empty diagnostics published when `uri` is closed.
fn diagnostics_where_empty(lsp: &mut Lsp, uri: &str) {
    let u = uri.to_string();
    lsp.wait_for_within("empty diagnostics", Duration::from_secs(30), move |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == u.as_str()
            && m["params"]["diagnostics"]
                .as_array()
                .is_some_and(|d| d.is_empty())
    })
    .unwrap_or_else(|| panic!("no empty diagnostics after closing {uri}"));
}
