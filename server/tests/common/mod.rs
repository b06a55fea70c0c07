//! A small LSP client for the end-to-end tests: starts the built `omplens lsp`, frames JSON-RPC
//! messages with Content-Length headers, answers the server's own requests
//! (`workspace/applyEdit` is recorded and accepted), and waits for specific messages with a
//! timeout instead of sleeping.

#![allow(dead_code)] // each test binary uses part of it

use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Long enough for a first libclang parse in a debug build on a busy 2-core machine.
pub const TIMEOUT: Duration = Duration::from_secs(90);

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("server/ has a parent")
        .to_path_buf()
}

pub fn file_uri(path: &Path) -> String {
    let abs = std::path::absolute(path).expect("absolute path");
    format!("file://{}", abs.display())
}

pub struct Lsp {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    /// Received and not yet consumed by a wait.
    pending: VecDeque<Value>,
    next_id: i64,
    stderr: Arc<Mutex<String>>,
    /// `workspace/applyEdit` requests from the server: their `edit`.
    pub applied_edits: Vec<Value>,
    /// What `workspace/configuration` answers (one item).
    pub configuration: Value,
    /// Every `$/progress` notification seen.
    pub progress: Vec<Value>,
}

impl Lsp {
    pub fn start() -> Lsp {
        Lsp::start_with_env(&[])
    }

    pub fn start_with_env(env: &[(&str, &str)]) -> Lsp {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_omplens"));
        cmd.arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("start omplens lsp");
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(body) = read_frame(&mut r) {
                let v: Value = serde_json::from_slice(&body)
                    .unwrap_or_else(|e| panic!("server sent invalid JSON ({e}): {body:?}"));
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        let log = Arc::new(Mutex::new(String::new()));
        let sink = log.clone();
        std::thread::spawn(move || {
            let mut s = String::new();
            let mut r = BufReader::new(stderr);
            while r.read_line(&mut s).unwrap_or(0) > 0 {
                sink.lock().unwrap().push_str(&s);
                s.clear();
            }
        });
        Lsp {
            stdin: child.stdin.take(),
            child,
            incoming: rx,
            pending: VecDeque::new(),
            next_id: 1,
            stderr: log,
            applied_edits: Vec::new(),
            configuration: Value::Null,
            progress: Vec::new(),
        }
    }

    /// The server's resident set size now, in KiB (Linux `/proc`).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("read the server's /proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS in /proc status")
    }

    /// Messages received (while waiting for others) that satisfy `pred`.
    pub fn received(&self, pred: impl Fn(&Value) -> bool) -> Vec<Value> {
        self.pending.iter().filter(|m| pred(m)).cloned().collect()
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Writes `bytes` to the server's stdin as they are (frames, broken frames, garbage).
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to server");
        stdin.flush().unwrap();
    }

    /// Writes one frame with `body` as it is (valid JSON or not).
    pub fn send_raw(&mut self, body: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(body);
        stdin.write_all(&frame).expect("write to server");
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, msg: &Value) {
        self.send_raw(msg.to_string().as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Sends a request and waits for its response (the whole message: `result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.wait_for(&format!("the response to {method} #{id}"), |m| {
            m.get("id") == Some(&json!(id)) && m.get("method").is_none()
        })
    }

    /// The `result` of a request that must succeed.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let r = self.request(method, params);
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        r["result"].clone()
    }

    /// The next message (in arrival order, skipping consumed ones) that satisfies `pred`;
    /// panics after [`TIMEOUT`]. The server's requests are answered on the way.
    pub fn wait_for(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        self.wait_for_within(what, TIMEOUT, pred)
            .unwrap_or_else(|| {
                panic!(
                    "timed out waiting for {what}; server stderr:\n{}",
                    self.stderr()
                )
            })
    }

    pub fn wait_for_within(
        &mut self,
        _what: &str,
        limit: Duration,
        pred: impl Fn(&Value) -> bool,
    ) -> Option<Value> {
        if let Some(i) = self.pending.iter().position(&pred) {
            return self.pending.remove(i);
        }
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(m) => {
                    self.answer_server_request(&m);
                    if m.get("method") == Some(&json!("$/progress")) {
                        self.progress.push(m.clone());
                    }
                    if pred(&m) {
                        return Some(m);
                    }
                    self.pending.push_back(m);
                }
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server closed its output; stderr:\n{}", self.stderr())
                }
            }
        }
    }

    fn answer_server_request(&mut self, m: &Value) {
        let (Some(method), Some(id)) = (m.get("method").and_then(Value::as_str), m.get("id"))
        else {
            return;
        };
        let result = match method {
            "workspace/applyEdit" => {
                self.applied_edits.push(m["params"]["edit"].clone());
                json!({"applied": true})
            }
            "workspace/configuration" => json!([self.configuration.clone()]),
            _ => Value::Null,
        };
        let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
        self.send(&reply);
    }

    /// `initialize` + `initialized` with the given client capabilities and options.
    pub fn initialize(&mut self, capabilities: Value, options: Value) -> Value {
        let root = file_uri(&repo());
        let r = self.call(
            "initialize",
            json!({
                "processId": null,
                "rootUri": root,
                "capabilities": capabilities,
                "initializationOptions": options,
            }),
        );
        self.notify("initialized", json!({}));
        r
    }

    /// Capabilities of a capable client (versioned edits, progress, dynamic watchers).
    pub fn full_capabilities() -> Value {
        json!({
            "workspace": {
                "workspaceEdit": {"documentChanges": true},
                "didChangeWatchedFiles": {"dynamicRegistration": true},
                "configuration": true,
                "inlayHint": {"refreshSupport": true},
                "codeLens": {"refreshSupport": true},
            },
            "window": {"workDoneProgress": true},
            "textDocument": {"publishDiagnostics": {"versionSupport": true}},
        })
    }

    pub fn open(&mut self, uri: &str, language: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": version, "text": text}}),
        );
    }

    pub fn change(&mut self, uri: &str, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        );
    }

    /// The next `publishDiagnostics` for `uri` that satisfies `pred`.
    pub fn diagnostics_where(&mut self, uri: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let uri = uri.to_string();
        self.wait_for(&format!("diagnostics of {uri}"), move |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri.as_str()
                && pred(&m["params"])
        })["params"]
            .clone()
    }

    /// The next `publishDiagnostics` for `uri` at `version`.
    pub fn diagnostics(&mut self, uri: &str, version: i32) -> Vec<Value> {
        let p = self.diagnostics_where(uri, |p| p["version"] == version);
        p["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    /// `shutdown`, `exit`, and the exit status.
    pub fn shutdown_and_exit(mut self) -> ExitStatus {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "shutdown failed: {r}");
        self.notify("exit", Value::Null);
        self.wait_exit()
    }

    pub fn wait_exit(mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(s) = self.child.try_wait().expect("wait for the server") {
                return s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not exit; stderr:\n{}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Lsp {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn read_frame(r: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            length = v.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    Some(body)
}

/// The byte offset of an LSP position (UTF-16 columns) in `text`.
pub fn offset(text: &str, line: u64, character: u64) -> usize {
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let mut units = 0u64;
    for (i, c) in text[start..end].char_indices() {
        if units >= character {
            return start + i;
        }
        units += c.len_utf16() as u64;
    }
    end
}

/// Applies LSP text edits (all against the same original text) to `text`.
pub fn apply_edits(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            let s = offset(
                text,
                r["start"]["line"].as_u64().unwrap(),
                r["start"]["character"].as_u64().unwrap(),
            );
            let t = offset(
                text,
                r["end"]["line"].as_u64().unwrap(),
                r["end"]["character"].as_u64().unwrap(),
            );
            (s, t, e["newText"].as_str().unwrap().to_string())
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse((s.0, s.1)));
    let mut out = text.to_string();
    for (s, t, new) in spans {
        out.replace_range(s..t, &new);
    }
    out
}

/// The edits of `uri` in a WorkspaceEdit, in either form (`documentChanges` or `changes`),
/// and the version they were made for (None with `changes`).
pub fn edits_of(edit: &Value, uri: &str) -> (Vec<Value>, Option<i64>) {
    if let Some(dc) = edit.get("documentChanges").and_then(Value::as_array) {
        let mut out = Vec::new();
        let mut version = None;
        for d in dc {
            assert_eq!(
                d["textDocument"]["uri"], uri,
                "edit of another document: {d}"
            );
            version = d["textDocument"]["version"].as_i64();
            out.extend(d["edits"].as_array().cloned().unwrap_or_default());
        }
        return (out, version);
    }
    let changes = edit["changes"][uri].as_array().cloned().unwrap_or_default();
    (changes, None)
}

/// `(line, code)` of each diagnostic (1-based line, as the .expect files write it).
pub fn lines_and_codes(diags: &[Value]) -> Vec<(u64, String)> {
    diags
        .iter()
        .map(|d| {
            (
                d["range"]["start"]["line"].as_u64().unwrap() + 1,
                d["code"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The `LINE CODE` lines of a tests/check expectation file.
pub fn expected(name: &str) -> Vec<(u64, String)> {
    let text = std::fs::read_to_string(repo().join("tests/check").join(format!("{name}.expect")))
        .expect("expectation file");
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace();
            (
                w.next().unwrap().parse().unwrap(),
                w.next().unwrap().to_string(),
            )
        })
        .collect()
}

/// The `publishDiagnostics` of `uri` at `version`, waiting at most `limit`.
#[allow(dead_code)]
pub fn diagnostics_within(lsp: &mut Lsp, uri: &str, version: i32, limit: Duration) -> Vec<Value> {
    let u = uri.to_string();
    let m = lsp
        .wait_for_within("diagnostics", limit, move |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == u.as_str()
                && m["params"]["version"] == version
        })
        .unwrap_or_else(|| {
            panic!(
                "no diagnostics for {uri} version {version} within {limit:?}; stderr:\n{}",
                lsp.stderr()
            )
        });
    m["params"]["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// A C++ file of about `lines` lines with many kernels from `bench/gen_large.py`, written
/// to `dir/name`: its path and text.
#[allow(dead_code)]
pub fn generated(dir: &Path, name: &str, lines: usize) -> (PathBuf, String) {
    let path = dir.join(name);
    let out = std::process::Command::new("python3")
        .arg(repo().join("bench/gen_large.py"))
        .arg(&path)
        .args(["--lines", &lines.to_string()])
        .output()
        .expect("run python3 bench/gen_large.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text)
}
