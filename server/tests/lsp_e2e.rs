//! `omplens lsp` end to end: the real binary over stdio, driven by a small framed JSON-RPC
//! client (tests/common). Programs come from tests/check (their NAME.expect lists the
//! findings by line and code); the server only reads them, edits stay in its buffers.

mod common;

use common::{apply_edits, edits_of, expected, file_uri, lines_and_codes, repo, Lsp};
use serde_json::{json, Value};

fn program(name: &str) -> (String, String) {
    let path = repo().join("tests/check").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    (file_uri(&path), text)
}

fn pos(line: u64, character: u64) -> Value {
    json!({"line": line, "character": character})
}

fn range(l0: u64, c0: u64, l1: u64, c1: u64) -> Value {
    json!({"start": pos(l0, c0), "end": pos(l1, c1)})
}

/// 0-based line and column of the first occurrence of `needle` in `text`.
fn find(text: &str, needle: &str) -> (u64, u64) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the text"));
    let line = text[..at].matches('\n').count() as u64;
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    (line, col as u64)
}

fn hover_text(lsp: &mut Lsp, uri: &str, (line, col): (u64, u64)) -> String {
    let r = lsp.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": pos(line, col)}),
    );
    assert_eq!(r["contents"]["kind"], "markdown", "{r}");
    r["contents"]["value"].as_str().unwrap().to_string()
}

fn code_actions(lsp: &mut Lsp, uri: &str, diag: &Value) -> Vec<Value> {
    lsp.call(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": diag["range"],
            "context": {"diagnostics": [diag]},
        }),
    )
    .as_array()
    .cloned()
    .unwrap_or_default()
}

#[test]
fn diagnostics_fix_hover_hints_lens_and_edits() {
    let mut lsp = Lsp::start();
    let init = lsp.initialize(Lsp::full_capabilities(), json!({"debounceMs": 20}));
    let caps = &init["capabilities"];
    assert_eq!(
        caps["textDocumentSync"]["change"], 2,
        "incremental sync: {caps}"
    );
    assert_eq!(init["serverInfo"]["name"], "omplens");

    let (uri, text) = program("lost_scalar_bug.c");
    lsp.open(&uri, "c", 1, &text);
    let diags = lsp.diagnostics(&uri, 1);
    assert_eq!(
        lines_and_codes(&diags),
        expected("lost_scalar_bug"),
        "{diags:?}"
    );
    let d = &diags[0];
    assert_eq!(d["source"], "omplens");
    assert_eq!(d["severity"], 1, "OMP104 is an error: {d}");
    assert_eq!(d["data"]["rule"], "lost-scalar-write");
    assert!(
        d.get("codeDescription").is_none(),
        "no docsBaseUrl configured: {d}"
    );
    let related = d["relatedInformation"]
        .as_array()
        .expect("related locations");
    assert!(
        related
            .iter()
            .any(|r| r["location"]["range"]["start"]["line"] == 16
                && r["message"]
                    .as_str()
                    .unwrap()
                    .contains("written on the device")),
        "{related:?}"
    );

    // The quick fix, preferred, for this diagnostic, with a versioned edit.
    let actions = code_actions(&mut lsp, &uri, d);
    let fix = actions
        .iter()
        .find(|a| a["kind"] == "quickfix")
        .unwrap_or_else(|| panic!("no quick fix in {actions:?}"));
    assert_eq!(fix["isPreferred"], true);
    assert_eq!(fix["diagnostics"][0]["code"], "OMP104");
    let (edits, version) = edits_of(&fix["edit"], &uri);
    assert_eq!(version, Some(1));
    let fixed = apply_edits(&text, &edits);
    assert!(
        fixed.contains("#pragma omp target map(to: v) map(tofrom: count)"),
        "{fixed}"
    );
    // The refactorings and the plan are offered too.
    let titles: Vec<&str> = actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert!(
        titles.iter().any(|t| t.contains("whole file")),
        "{titles:?}"
    );
    assert!(actions
        .iter()
        .any(|a| a["command"]["command"] == "omplens.showPlan"));

    // Hover on the directive: what it copies, with bytes; on a variable in the kernel: its
    // type, who maps it, and its state there.
    let h = hover_text(&mut lsp, &uri, find(&text, "#pragma omp target map"));
    assert!(h.contains("Copies to the device on entry"), "{h}");
    assert!(h.contains("`v` (`to`): 16000 B"), "{h}");
    assert!(h.contains("firstprivate(count)"), "{h}");
    let (l, c) = find(&text, "v[i] > 0");
    let h = hover_text(&mut lsp, &uri, (l, c));
    assert!(h.contains("`int[4000]`") && h.contains("16000 B"), "{h}");
    assert!(h.contains("map(to: v)"), "{h}");
    assert!(h.contains("read on the device"), "{h}");
    assert!(
        h.contains("present on the device (reference count 1)"),
        "{h}"
    );
    assert!(h.contains("device copy: valid"), "{h}");

    // Inlay hint at the end of the kernel's pragma line: its implicit data-sharing.
    let hints = lsp.call(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": range(0, 0, 30, 0)}),
    );
    let hints = hints.as_array().unwrap();
    assert_eq!(hints.len(), 1, "{hints:?}");
    let (pl, _) = find(&text, "#pragma omp target map");
    assert_eq!(hints[0]["position"]["line"], pl);
    assert_eq!(
        hints[0]["position"]["character"],
        "#pragma omp target map(to: v)".len()
    );
    assert_eq!(hints[0]["label"], "implicit: firstprivate(count)");

    // Code lens above the kernel: bytes per launch.
    let lenses = lsp.call(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let title = lenses[0]["command"]["title"].as_str().unwrap().to_string();
    assert_eq!(
        title,
        "per launch: 16000 B (1 copy) to the device, nothing to the host"
    );

    let plan = lsp.call(
        "workspace/executeCommand",
        json!({"command": "omplens.showPlan", "arguments": [uri]}),
    );
    let plan = plan.as_str().unwrap();
    assert!(
        plan.starts_with("fn main:") && plan.contains("map(tofrom: count)"),
        "{plan}"
    );

    // An incremental edit that applies the fix: the diagnostic goes away.
    let changes: Vec<Value> = edits
        .iter()
        .map(|e| json!({"range": e["range"], "text": e["newText"]}))
        .collect();
    lsp.change(&uri, 2, json!(changes));
    let after = lsp.diagnostics(&uri, 2);
    assert!(after.is_empty(), "{after:?}");
    let h = hover_text(&mut lsp, &uri, find(&fixed, "#pragma omp target map"));
    assert!(
        h.contains("`count` (`tofrom`): 4 B"),
        "the server has the edited text: {h}"
    );

    // Non-ASCII text before a name: positions are UTF-16 columns (the clef is 2 units and
    // 4 bytes), both in the edit and in the hover request.
    let (pl, _) = find(&fixed, "  printf(\"positive");
    lsp.change(
        &uri,
        3,
        json!([{"range": range(pl, 0, pl, 0), "text": "/* 𝄞é */"}]),
    );
    assert!(lsp.diagnostics(&uri, 3).is_empty());
    let col = "/* 𝄞é */  printf(\"positive=%d\\n\", "
        .encode_utf16()
        .count() as u64;
    let h = hover_text(&mut lsp, &uri, (pl, col));
    assert!(h.starts_with("**`count`**: `int`"), "{h}");
    assert!(h.contains("read on the host"), "{h}");

    // The plan as text, through the command: the fix left nothing to map.
    let plan = lsp.call(
        "workspace/executeCommand",
        json!({"command": "omplens.showPlan", "arguments": [uri]}),
    );
    assert!(
        plan.as_str().unwrap().starts_with("nothing to map"),
        "{plan}"
    );

    // didClose: empty diagnostics, and the document is forgotten.
    lsp.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let closed = lsp.diagnostics_where(&uri, |p| {
        p["diagnostics"] == json!([]) && p.get("version").is_none_or(Value::is_null)
    });
    assert!(closed["diagnostics"].as_array().unwrap().is_empty());
    let r = lsp.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": pos(12, 0)}),
    );
    assert!(r.is_null(), "closed document: {r}");

    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

#[test]
fn an_older_change_is_ignored() {
    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({"debounceMs": 10}));
    let (uri, text) = program("host_write_stale_bug.c");
    lsp.open(&uri, "c", 1, &text);
    let diags = lsp.diagnostics(&uri, 1);
    assert_eq!(lines_and_codes(&diags), expected("host_write_stale_bug"));

    // Version 3 inserts the missing update before the second kernel (the fix); version 2,
    // handled after it, would break the file with a syntax error: it must be ignored.
    let (kl, _) = find(&text, "#pragma omp target teams distribute parallel for\n    for (int i = 0; i < N; i++)\n      c[i]");
    lsp.change(
        &uri,
        3,
        json!([{"range": range(kl, 0, kl, 0), "text": "#pragma omp target update to(a)\n"}]),
    );
    lsp.change(
        &uri,
        2,
        json!([{"range": range(8, 0, 8, 0), "text": "int broken = ;\n"}]),
    );
    let after = lsp.diagnostics(&uri, 3);
    assert!(after.is_empty(), "{after:?}");
    let h = hover_text(&mut lsp, &uri, (kl, 2));
    assert!(h.contains("target update"), "version 3 is the text: {h}");
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

#[test]
fn protocol_errors_leave_the_server_serving() {
    let mut lsp = Lsp::start_with_env(&[("OMPLENS_LSP_TEST_PANIC", "OMPLENS_PANIC_HERE")]);
    let init = lsp.initialize(json!({}), Value::Null);
    let commands = &init["capabilities"]["executeCommandProvider"]["commands"];
    assert!(commands
        .as_array()
        .unwrap()
        .contains(&json!("omplens.test.panic")));

    // Not JSON: a parse error with a null id.
    lsp.send_raw(b"{\"jsonrpc\": \"2.0\", \"id\": 99, \"method\": ");
    let e = lsp.wait_for("a parse error", |m| m["error"]["code"] == -32700);
    assert!(e["id"].is_null(), "{e}");
    // JSON, but no JSON-RPC message: an invalid request naming its id.
    lsp.send(&json!({"jsonrpc": "1.0", "id": 41, "method": "x"}));
    let e = lsp.wait_for("an invalid request error", |m| m["error"]["code"] == -32600);
    assert_eq!(e["id"], 41, "{e}");

    // An unknown method.
    let r = lsp.request("omplens/noSuchMethod", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");

    // Requests about a document that is not open.
    let ghost = file_uri(&repo().join("tests/check/no_such_file.c"));
    let r = lsp.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": ghost}, "position": pos(0, 0)}),
    );
    assert!(r.is_null(), "{r}");
    let r = lsp.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": ghost}, "range": range(0, 0, 0, 0), "context": {"diagnostics": []}}),
    );
    assert!(r.is_null(), "{r}");
    let r = lsp.request(
        "workspace/executeCommand",
        json!({"command": "omplens.showPlan", "arguments": [ghost]}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");

    // A panic in a handler answers that request with an internal error.
    let r = lsp.request(
        "workspace/executeCommand",
        json!({"command": "omplens.test.panic", "arguments": []}),
    );
    assert_eq!(r["error"]["code"], -32603, "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("panicked"),
        "{r}"
    );

    // A panic in the analysis: one diagnostic on line 1 says so.
    let (uri, text) = program("lost_scalar_bug.c");
    let text = format!("// OMPLENS_PANIC_HERE\n{text}");
    lsp.open(&uri, "c", 1, &text);
    let diags = lsp.diagnostics(&uri, 1);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 0);
    assert!(
        diags[0]["message"].as_str().unwrap().contains("panicked"),
        "{diags:?}"
    );

    // A document that cannot be analysed at all (not a file).
    lsp.open(
        "untitled:Untitled-1",
        "c",
        1,
        "int main(void) { return 0; }\n",
    );
    let diags = lsp.diagnostics("untitled:Untitled-1", 1);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0]["message"]
        .as_str()
        .unwrap()
        .contains("files on disk"));

    // Still serving: the same file without the marker analyses normally.
    lsp.change(&uri, 2, json!([{"range": range(0, 0, 1, 0), "text": ""}]));
    let diags = lsp.diagnostics(&uri, 2);
    assert_eq!(lines_and_codes(&diags), expected("lost_scalar_bug"));
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

#[test]
fn exit_without_shutdown_is_status_1() {
    let mut lsp = Lsp::start();
    lsp.initialize(json!({}), Value::Null);
    lsp.notify("exit", Value::Null);
    assert_eq!(lsp.wait_exit().code(), Some(1));
}

#[test]
fn settings_select_rules_hints_and_docs_links() {
    let mut lsp = Lsp::start();
    // A client without versioned edits: actions use `changes`.
    lsp.initialize(
        json!({}),
        json!({"omplens": {"checks": {"ignore": ["OMP104"]}, "inlayHints": false, "debounceMs": 10}}),
    );
    let (uri, text) = program("lost_scalar_bug.c");
    lsp.open(&uri, "c", 1, &text);
    assert!(lsp.diagnostics(&uri, 1).is_empty(), "OMP104 is ignored");
    let hints = lsp.call(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": range(0, 0, 30, 0)}),
    );
    assert_eq!(hints, json!([]));

    // New settings: the rule is back, with a link to its page.
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"docsBaseUrl": "https://docs.example/omplens/"}}),
    );
    let diags = lsp.diagnostics_where(&uri, |p| {
        p["diagnostics"].as_array().is_some_and(|d| !d.is_empty())
    });
    let d = &diags["diagnostics"][0];
    assert_eq!(d["code"], "OMP104");
    assert_eq!(
        d["codeDescription"]["href"],
        "https://docs.example/omplens/OMP104"
    );
    let actions = code_actions(&mut lsp, &uri, d);
    let fix = actions.iter().find(|a| a["kind"] == "quickfix").unwrap();
    assert!(fix["edit"]["changes"][&uri].is_array(), "{fix}");
    let hints = lsp.call(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": range(0, 0, 30, 0)}),
    );
    assert_eq!(
        hints.as_array().unwrap().len(),
        1,
        "hints are on again: {hints}"
    );
    // Invalid settings are refused with a message; the previous ones stay.
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"checks": {"ignore": ["OMP999"]}}}),
    );
    let m = lsp.wait_for("a warning", |m| m["method"] == "window/showMessage");
    assert!(
        m["params"]["message"].as_str().unwrap().contains("OMP999"),
        "{m}"
    );
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

/// lost_scalar_bug.c with its array size from the command line (`-DSIZE=...`).
const SIZED: &str = "#include <stdio.h>

int main(void) {
  int v[SIZE];
  for (int i = 0; i < SIZE; i++)
    v[i] = i % 7 - 3;
  int count = 0;
#pragma omp target map(to: v)
  {
    for (int i = 0; i < SIZE; i++)
      if (v[i] > 0)
        count++;
  }
  printf(\"positive=%d\\n\", count);
  return 0;
}
";

/// A compilation database for `dir/prog.c` defining SIZE.
fn database(dir: &std::path::Path) -> String {
    json!([{
        "directory": dir.display().to_string(),
        "file": "prog.c",
        "arguments": ["clang", "-DSIZE=64", "-c", "prog.c"],
    }])
    .to_string()
}

fn sources(diags: &[Value]) -> Vec<(String, String)> {
    diags
        .iter()
        .map(|d| {
            (
                d["source"].as_str().unwrap_or("").to_string(),
                d["code"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn compile_commands_and_configuration_files_are_watched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("prog.c");
    std::fs::write(&path, SIZED).unwrap();
    let uri = file_uri(&path);
    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({"debounceMs": 10}));
    let reg = lsp.wait_for("the watcher registration", |m| {
        m["method"] == "client/registerCapability"
    });
    let watchers = &reg["params"]["registrations"][0]["registerOptions"]["watchers"];
    assert!(
        watchers.to_string().contains("**/compile_commands.json"),
        "{watchers}"
    );
    assert!(
        watchers.to_string().contains("**/.omplens.toml"),
        "{watchers}"
    );

    // No database yet: SIZE is unknown, clang says so.
    lsp.open(&uri, "c", 1, SIZED);
    let diags = lsp.diagnostics(&uri, 1);
    let errors: Vec<&Value> = diags.iter().filter(|d| d["source"] == "clang").collect();
    assert!(!errors.is_empty(), "{diags:?}");
    assert_eq!(errors[0]["severity"], 1);
    assert!(
        errors[0]["message"].as_str().unwrap().contains("SIZE"),
        "{errors:?}"
    );
    // The file does not compile: no data-mapping refactoring is offered.
    let actions = lsp.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": range(9, 0, 9, 0), "context": {"diagnostics": []}}),
    );
    assert!(
        !actions.to_string().contains("whole file"),
        "no plan for code with errors: {actions}"
    );

    // The database appears (found next to the file, as clangd finds it).
    let db = dir.path().join("compile_commands.json");
    std::fs::write(&db, database(dir.path())).unwrap();
    lsp.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&db), "type": 1}]}),
    );
    let p = lsp.diagnostics_where(&uri, |p| !p["diagnostics"].to_string().contains("clang"));
    assert_eq!(
        sources(p["diagnostics"].as_array().unwrap()),
        vec![("omplens".to_string(), "OMP104".to_string())]
    );
    // Progress was reported while the open documents were analysed again.
    let end = lsp.wait_for("the end of the progress", |m| {
        m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end"
    });
    assert!(end["params"]["token"]
        .as_str()
        .unwrap()
        .starts_with("omplens/"));
    assert!(lsp
        .progress
        .iter()
        .any(|m| m["params"]["value"]["kind"] == "begin"));

    // A configuration file that ignores the rule.
    let toml = dir.path().join(".omplens.toml");
    std::fs::write(&toml, "[check]\nignore = [\"lost-scalar-write\"]\n").unwrap();
    lsp.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&toml), "type": 1}]}),
    );
    let p = lsp.diagnostics_where(&uri, |p| p["diagnostics"] == json!([]));
    assert_eq!(p["version"], 1);
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

#[test]
fn flags_and_compile_commands_dir_from_settings() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("prog.c");
    std::fs::write(&path, SIZED).unwrap();
    // Not where the upward search looks: only the setting finds it.
    let db_dir = dir.path().join("elsewhere");
    std::fs::create_dir(&db_dir).unwrap();
    std::fs::write(db_dir.join("compile_commands.json"), database(dir.path())).unwrap();
    let uri = file_uri(&path);
    let mut lsp = Lsp::start();
    lsp.initialize(
        json!({}),
        json!({"compileCommandsDir": db_dir.display().to_string(), "codeLens": false}),
    );
    lsp.open(&uri, "c", 1, SIZED);
    let diags = lsp.diagnostics(&uri, 1);
    assert_eq!(sources(&diags), vec![("omplens".into(), "OMP104".into())]);
    let lenses = lsp.call(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(lenses, json!([]), "code lenses are off");

    // Extra flags instead of the database.
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"omplens": {"flags": ["-DSIZE=32"]}}}),
    );
    let p = lsp.diagnostics_where(&uri, |_| true);
    assert_eq!(
        sources(p["diagnostics"].as_array().unwrap()),
        vec![("omplens".into(), "OMP104".into())]
    );
    let lenses = lsp.call(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    assert!(
        lenses[0]["command"]["title"]
            .as_str()
            .unwrap()
            .contains("128 B (1 copy) to the device"),
        "v is int[32] now, and lenses are back on: {lenses}"
    );
    // Neither: clang's error is back.
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"omplens": {}}}),
    );
    let p = lsp.diagnostics_where(&uri, |p| p["diagnostics"].to_string().contains("\"clang\""));
    assert!(p["diagnostics"].to_string().contains("SIZE"), "{p}");
    // A broken database: nothing can be analysed, one diagnostic on line 1 says why.
    std::fs::write(db_dir.join("compile_commands.json"), "[{").unwrap();
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"compileCommandsDir": db_dir.display().to_string()}}),
    );
    let p = lsp.diagnostics_where(&uri, |p| p["diagnostics"].to_string().contains("database"));
    let diags = p["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 0);
    assert_eq!(diags[0]["severity"], 1);
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

#[test]
fn insert_data_region_commands_apply_their_edit() {
    let path = repo().join("tests/check/unmapped_malloc_bug.c");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = file_uri(&path);
    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({}));
    lsp.open(&uri, "c", 1, &text);
    let diags = lsp.diagnostics(&uri, 1);
    assert_eq!(lines_and_codes(&diags), expected("unmapped_malloc_bug"));

    let (l, c) = find(&text, "double sum");
    let r = lsp.call(
        "workspace/executeCommand",
        json!({"command": "omplens.insertDataRegion.function", "arguments": [uri, pos(l, c)]}),
    );
    assert_eq!(r["applied"], true, "{r}");
    let edit = lsp
        .applied_edits
        .pop()
        .expect("the server sent workspace/applyEdit");
    let (edits, version) = edits_of(&edit, &uri);
    assert_eq!(version, Some(1));
    let fixed = apply_edits(&text, &edits);
    assert!(fixed.contains("map(to: x[0:n])"), "{fixed}");

    let r = lsp.call(
        "workspace/executeCommand",
        json!({"command": "omplens.insertDataRegion.file", "arguments": [uri]}),
    );
    assert_eq!(r["applied"], true, "{r}");
    let edit = lsp.applied_edits.pop().unwrap();
    assert_eq!(apply_edits(&text, &edits_of(&edit, &uri).0), fixed);
    // Outside any function there is nothing to insert.
    let r = lsp.call(
        "workspace/executeCommand",
        json!({"command": "omplens.insertDataRegion.function", "arguments": [uri, pos(0, 0)]}),
    );
    assert_eq!(r["applied"], false, "{r}");
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

#[test]
fn notes_in_an_included_header_point_into_the_header() {
    let mut lsp = Lsp::start();
    lsp.initialize(json!({}), Value::Null);
    let (uri, text) = program("header_enter_data_stale_bug.c");
    lsp.open(&uri, "c", 1, &text);
    let diags = lsp.diagnostics(&uri, 1);
    let header_uri = file_uri(&repo().join("tests/check/include/fill_enter.h"));
    let header = std::fs::read_to_string(repo().join("tests/check/include/fill_enter.h")).unwrap();
    let include = find(&text, "#include \"include/fill_enter.h\"");
    let by_code = |code: &str| {
        diags
            .iter()
            .find(|d| d["code"] == code)
            .unwrap_or_else(|| panic!("no {code} in {diags:?}"))
            .clone()
    };
    // The device write in the header: the note's location is in the header's own file.
    let stale = by_code("OMP101");
    let note = &stale["relatedInformation"][0];
    assert_eq!(note["location"]["uri"], header_uri, "{stale}");
    let (l, c) = find(&header, "a[i] = 2.0 * i");
    assert_eq!(note["location"]["range"]["start"], pos(l, c), "{stale}");
    // The `enter data` in the header: the diagnostic sits on the `#include` (a file's
    // diagnostics are that file's), its first note on the directive in the header.
    let leak = by_code("OMP108");
    assert_eq!(leak["range"]["start"]["line"], include.0, "{leak}");
    let note = &leak["relatedInformation"][0];
    assert_eq!(note["location"]["uri"], header_uri, "{leak}");
    let (l, c) = find(&header, "#pragma omp target enter data");
    assert_eq!(note["location"]["range"]["start"], pos(l, c), "{leak}");
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_redundant_update_is_unnecessary_code() {
    let mut lsp = Lsp::start();
    lsp.initialize(json!({}), Value::Null);
    let (uri, text) = program("waste_update_redundant.c");
    lsp.open(&uri, "c", 1, &text);
    let diags = lsp.diagnostics(&uri, 1);
    let mut got = lines_and_codes(&diags);
    got.sort();
    let mut want = expected("waste_update_redundant");
    want.sort();
    assert!(
        want.iter().all(|w| got.contains(w)),
        "{got:?} lacks some of {want:?}"
    );
    for d in &diags {
        let tagged = d["tags"] == json!([1]);
        assert_eq!(
            tagged,
            d["code"] == "OMP202",
            "only OMP202 is unnecessary: {d}"
        );
        assert_eq!(d["severity"], 2, "waste is a warning: {d}");
        assert!(d["data"]["bytes"].as_u64().unwrap() > 0, "{d}");
    }
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

#[test]
fn rapid_edits_are_debounced() {
    let mut lsp = Lsp::start();
    lsp.initialize(json!({}), json!({"debounceMs": 300}));
    let (uri, text) = program("lost_scalar_bug.c");
    lsp.open(&uri, "c", 1, &text);
    assert_eq!(lsp.diagnostics(&uri, 1).len(), 1);
    // Five quick edits (typing a comment above main): one analysis, of the last version.
    // (Written at once: the first comes to an idle server and starts at once, and only
    // the next ones, read right after it, cancel it. Frames written one by one from a test
    // thread that a loaded machine deschedules could come after its publication.)
    let (l, _) = find(&text, "int main");
    let mut frames = Vec::new();
    for (v, ch) in (2..=6).zip(["/", "/", " ", "x", "\n"]) {
        let col = (v - 2) as u64;
        let body = json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didChange",
            "params": {
                "textDocument": {"uri": uri, "version": v},
                "contentChanges": [{"range": range(l, col, l, col), "text": ch}],
            },
        })
        .to_string();
        frames.extend(format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes());
    }
    lsp.write_bytes(&frames);
    let sent = std::time::Instant::now();
    let diags = lsp.diagnostics(&uri, 6);
    assert!(
        sent.elapsed() >= std::time::Duration::from_millis(300),
        "published before the debounce delay"
    );
    assert_eq!(lines_and_codes(&diags), vec![(21, "OMP104".to_string())]);
    let early = lsp.received(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["version"]
                .as_i64()
                .is_some_and(|v| (2..6).contains(&v))
    });
    assert!(
        early.is_empty(),
        "intermediate versions were published: {early:?}"
    );
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

/// The debounce gathers bursts: the first edit after a pause as long as the debounce is
/// analysed at once (the burst test above holds its last edit back for the whole delay).
#[test]
fn an_edit_after_a_pause_is_not_held_back() {
    let mut lsp = Lsp::start();
    lsp.initialize(json!({}), json!({"debounceMs": 1500}));
    let (uri, text) = program("lost_scalar_bug.c");
    lsp.open(&uri, "c", 1, &text);
    assert_eq!(lsp.diagnostics(&uri, 1).len(), 1);
    std::thread::sleep(std::time::Duration::from_millis(1600));
    lsp.change(&uri, 2, json!([{"range": range(0, 0, 0, 0), "text": "\n"}]));
    let sent = std::time::Instant::now();
    let diags = lsp.diagnostics(&uri, 2);
    assert!(
        sent.elapsed() < std::time::Duration::from_millis(1500),
        "held back for the debounce after a pause: {:?}",
        sent.elapsed()
    );
    assert_eq!(lines_and_codes(&diags), vec![(21, "OMP104".to_string())]);
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

/// An edit while the server is idle (the version before it analysed, nothing running) starts
/// at once whatever the debounce: there is no burst to gather. An editor waiting for each
/// edit's diagnostics gets them as soon as they are computed.
#[test]
fn an_edit_when_idle_is_not_held_back() {
    let mut lsp = Lsp::start();
    lsp.initialize(json!({}), json!({"debounceMs": 3000}));
    let (uri, text) = program("lost_scalar_bug.c");
    lsp.open(&uri, "c", 1, &text);
    assert_eq!(lsp.diagnostics(&uri, 1).len(), 1);
    for v in 2..=4 {
        lsp.change(&uri, v, json!([{"range": range(0, 0, 0, 0), "text": "\n"}]));
        let sent = std::time::Instant::now();
        let diags = lsp.diagnostics(&uri, v);
        assert!(
            sent.elapsed() < std::time::Duration::from_millis(3000),
            "version {v} held back for the debounce: {:?}",
            sent.elapsed()
        );
        assert_eq!(diags.len(), 1, "{diags:?}");
    }
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

/// Exit right after an edit, while the file's preamble may still be being made in the
/// background: status 0 (no abort from LLVM's static destructors under a libclang thread),
/// and no preamble file left in the temporary directory.
#[test]
fn exit_after_an_edit_is_clean() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp_path = tmp.path().display().to_string();
    let mut lsp = Lsp::start_with_env(&[("TMPDIR", &tmp_path)]);
    lsp.initialize(json!({}), json!({"debounceMs": 0}));
    let (uri, text) = program("lost_scalar_bug.c");
    lsp.open(&uri, "c", 1, &text);
    assert_eq!(lsp.diagnostics(&uri, 1).len(), 1);
    lsp.change(&uri, 2, json!([{"range": range(0, 0, 0, 0), "text": "\n"}]));
    assert_eq!(lsp.diagnostics(&uri, 2).len(), 1);
    let status = lsp.shutdown_and_exit();
    assert_eq!(status.code(), Some(0), "{status:?}");
    let left: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

#[test]
fn pull_model_configuration() {
    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({"debounceMs": 10}));
    let (uri, text) = program("lost_scalar_bug.c");
    lsp.open(&uri, "c", 1, &text);
    assert_eq!(lsp.diagnostics(&uri, 1).len(), 1);
    // A client that sends no settings: the server asks for the `omplens` section.
    lsp.configuration = json!({"checks": {"select": ["OMP2"]}});
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": null}),
    );
    let asked = lsp.wait_for("workspace/configuration", |m| {
        m["method"] == "workspace/configuration"
    });
    assert_eq!(asked["params"]["items"][0]["section"], "omplens");
    let p = lsp.diagnostics_where(&uri, |p| p["diagnostics"] == json!([]));
    assert_eq!(p["version"], 1);
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}

/// Right after an edit, hover, code actions, hints and lenses answer at once from the last
/// finished analysis, marked, with positions in the edited text; a hover inside the edited
/// text waits for the new analysis.
#[test]
fn requests_right_after_an_edit_answer_from_the_last_analysis() {
    let mut lsp = Lsp::start();
    // A long debounce: the newest version's analysis does not start before the requests
    // come (the burst's first edit starts at once, the server being idle; the second waits).
    lsp.initialize(Lsp::full_capabilities(), json!({"debounceMs": 5000}));
    let (uri, text) = program("lost_scalar_bug.c");
    lsp.open(&uri, "c", 1, &text);
    let diags = lsp.diagnostics(&uri, 1);
    let d = diags[0].clone();
    // Insert a comment line at the top, typed in two edits: everything moves down one line.
    lsp.change(
        &uri,
        2,
        json!([{"range": {"start": pos(0, 0), "end": pos(0, 0)}, "text": "// edit\n"}]),
    );
    lsp.change(
        &uri,
        3,
        json!([{"range": {"start": pos(0, 7), "end": pos(0, 7)}, "text": "ed"}]),
    );
    let (l, c) = find(&text, "#pragma omp target map");
    let started = std::time::Instant::now();
    // The quick fix of the old analysis, at its new place, asked together with the hover:
    // both are answered before the new analysis has finished, at least the first.
    let mut moved = d.clone();
    moved["range"]["start"]["line"] = json!(d["range"]["start"]["line"].as_u64().unwrap() + 1);
    moved["range"]["end"]["line"] = json!(d["range"]["end"]["line"].as_u64().unwrap() + 1);
    let hover_id = lsp.send_request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": pos(l + 1, c)}),
    );
    let action_id = lsp.send_request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": moved["range"],
            "context": {"diagnostics": [moved]},
        }),
    );
    let response = |lsp: &mut Lsp, id: i64| {
        lsp.wait_for("a response", |m| {
            m.get("id") == Some(&json!(id)) && m.get("method").is_none()
        })["result"]
            .clone()
    };
    let h = response(&mut lsp, hover_id);
    let h = h["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        h.contains("Copies to the device on entry") && h.contains("From the analysis of version 1"),
        "{h}"
    );
    // The fix is right for the current text whether it came from the old analysis (marked)
    // or the new one.
    let actions = response(&mut lsp, action_id);
    let fix = actions
        .as_array()
        .into_iter()
        .flatten()
        .find(|a| a["kind"] == "quickfix")
        .unwrap_or_else(|| panic!("no quick fix in {actions:?}"));
    let (edits, version) = edits_of(&fix["edit"], &uri);
    assert_eq!(version, Some(3), "{fix}");
    let current = format!("// edited\n{text}");
    let fixed = apply_edits(&current, &edits);
    assert!(
        fixed.starts_with("// edited\n")
            && fixed.contains("#pragma omp target map(to: v) map(tofrom: count)"),
        "{fixed}"
    );
    // Neither waited for the 5 s debounce.
    assert!(started.elapsed() < std::time::Duration::from_secs(4));
    // A hover on the edited text itself waits for the analysis of version 2.
    let r = lsp.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": pos(0, 4)}),
    );
    assert!(
        r.is_null() || !r.to_string().contains("From the analysis of version"),
        "{r}"
    );
    // The newest version's analysis ran (the requests started it) and answers unmarked.
    let h = hover_text(&mut lsp, &uri, (l + 1, c));
    assert!(!h.contains("From the analysis of version"), "{h}");
}

/// The rewrite gate in the editor: a rewrite the re-analysis refuses (tests/gate: its section
/// names a macro the file `#undef`s before the region, so it does not compile) is neither
/// offered as a code action nor applied by the insert-region commands.
#[test]
fn rewrites_the_gate_refuses_are_not_offered_or_applied() {
    let path = repo().join("tests/gate/refused_undefined_macro.c");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = file_uri(&path);
    let mut lsp = Lsp::start();
    lsp.initialize(Lsp::full_capabilities(), json!({}));
    lsp.open(&uri, "c", 1, &text);
    lsp.diagnostics(&uri, 1);
    let (l, c) = find(&text, "grid[perm[i]] = grid");
    let actions = lsp.call(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": {"start": pos(l, c), "end": pos(l, c)},
            "context": {"diagnostics": []},
        }),
    );
    let titles: Vec<&str> = actions
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["title"].as_str())
        .collect();
    assert!(
        !titles.iter().any(|t| t.starts_with("Insert")),
        "a refused rewrite was offered: {titles:?}"
    );
    assert!(
        titles.iter().any(|t| t.contains("mapping plan")),
        "the plan is still shown: {titles:?}"
    );
    let r = lsp.request(
        "workspace/executeCommand",
        json!({"command": "omplens.insertDataRegion.file", "arguments": [uri]}),
    );
    assert!(
        r["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("re-analysis")),
        "{r}"
    );
    assert!(lsp.applied_edits.is_empty(), "nothing was applied");
    assert_eq!(lsp.shutdown_and_exit().code(), Some(0));
}
