//! The analysis boundary: the one place the server calls into the analysis, through the
//! library's front door ([`AnalysisHost`] / [`Analysis`]). [`analyse`] takes a file's path,
//! its text and the settings, and returns owned, `Send` data that answers every request
//! (diagnostics, actions, hover, hints, lenses) without parsing again. The host keeps each
//! file's translation unit for a reparse; nothing else in the server touches libclang.

use super::config::Settings;
use super::convert::LineIndex;
use omplens_analysis::check::{config, Finding};
use omplens_analysis::frontend::flags;
use omplens_analysis::ide::{
    gate, Analysis, AnalysisHost, Cancellable, Change, Diagnostics, FileView,
};
use omplens_analysis::ir::Module;
use omplens_analysis::plan::Plan;
use omplens_analysis::text::TextEdit;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Set in tests only: the analysis of a text containing this value panics (to check that a
/// panic is contained).
pub const TEST_PANIC_ENV: &str = "OMPLENS_LSP_TEST_PANIC";

/// Everything known about one version of a file. Diagnostics come from the host at once;
/// the editor view (hover, hints, lenses) and the synthesized plan are asked of it when first
/// needed (the server warms them after publishing diagnostics): only the call-graph
/// components an edit touched compute theirs again.
#[derive(Debug)]
pub struct FileAnalysis {
    pub module: Arc<Module>,
    pub text: Arc<str>,
    /// After inline suppressions, `.omplens.toml` and the client's `checks`.
    pub findings: Vec<Finding>,
    /// Names in `omplens: ignore[...]` comments that are no rule: (offset, name).
    pub unknown_suppressions: Vec<(u32, String)>,
    /// Why the nearest `.omplens.toml` was not used, if it is invalid.
    pub config_error: Option<String>,
    /// The host's key of this text: (path, compile flags).
    input: (PathBuf, Vec<String>),
    plan: OnceLock<Result<Plan, String>>,
    view: OnceLock<Arc<FileView>>,
    /// The rewrite gate's baseline of this text, made on the first rewrite offered.
    baseline: OnceLock<gate::Baseline>,
    /// The gate's verdicts on rewrites of this text, by the rewritten text's hash.
    verdicts: Mutex<HashMap<u64, Arc<gate::Verdict>>>,
}

impl FileAnalysis {
    /// The synthesized mappings, or why there are none (the file does not compile).
    pub fn plan(&self) -> &Result<Plan, String> {
        self.plan.get_or_init(|| {
            self.ask_current(|a, p| a.plan(p))
                .unwrap_or_else(|| self.ask_alone(|a, p| a.plan(p)))
        })
    }

    /// What hover, inlay hints and code lenses show.
    pub fn view(&self) -> &FileView {
        self.view.get_or_init(|| {
            Arc::new(
                self.ask_current(|a, p| a.view(p))
                    .unwrap_or_else(|| self.ask_alone(|a, p| a.view(p))),
            )
        })
    }

    /// Whether the rewrite gate accepts `edits` on this text: the rewritten text parses (also
    /// with OpenMP semantics on) and analyses without a new compile error or a new finding of
    /// a correctness rule. An editor offers no edit the gate refuses. Verdicts are kept per
    /// rewritten text, so a request asked again costs nothing.
    pub fn gate_accepts(&self, edits: &[TextEdit]) -> bool {
        self.verdict(edits).is_none_or(|v| v.accepted())
    }

    /// Whether `edits`, offered as the fix of a finding of `code`, pass the gate and fix it:
    /// for a correctness rule, the rewritten text has fewer findings of `code`
    /// ([`gate::Verdict::resolves`]).
    pub fn gate_fixes(&self, edits: &[TextEdit], code: omplens_analysis::check::Code) -> bool {
        match self.verdict(edits) {
            None => true,
            Some(v) => v.accepted() && v.resolves(code, self.baseline().count(code)),
        }
    }

    /// The gate's verdict on `edits` (None when they change nothing).
    fn verdict(&self, edits: &[TextEdit]) -> Option<Arc<gate::Verdict>> {
        let rewritten = omplens_analysis::text::apply(&self.text, edits);
        if *rewritten == *self.text {
            return None;
        }
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            rewritten.hash(&mut h);
            h.finish()
        };
        if let Some(v) = self.verdicts.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return Some(v);
        }
        let (path, flags) = &self.input;
        let v = Arc::new(gate::verify(path, flags, self.baseline(), &rewritten));
        if let Ok(mut m) = self.verdicts.lock() {
            m.insert(key, v.clone());
        }
        Some(v)
    }

    /// The gate's baseline of this text, made once.
    fn baseline(&self) -> &gate::Baseline {
        let (path, flags) = &self.input;
        self.baseline.get_or_init(|| {
            let raw = self
                .ask_current(|a, p| a.findings(p))
                .unwrap_or_else(|| self.ask_alone(|a, p| a.findings(p)));
            gate::Baseline::of(path, flags, &self.text, &self.module, &raw)
        })
    }

    /// Computes the view and the plan from the host while it holds this text, and nothing
    /// otherwise: a newer text is being analysed, and the work an old version needs is left
    /// to a request that asks for it ([`Self::view`], [`Self::plan`]).
    pub fn warm(&self) {
        if self.view.get().is_none() {
            if let Some(v) = self.ask_current(|a, p| a.view(p)) {
                let _ = self.view.set(Arc::new(v));
            }
        }
        if self.plan.get().is_none() {
            if let Some(p) = self.ask_current(|a, p| a.plan(p)) {
                let _ = self.plan.set(p);
            }
        }
    }

    /// `query` on a snapshot of the server's host while it still holds this text, asked
    /// again when a change to another file cancels it. None once the file has a newer text
    /// or flags there.
    fn ask_current<T>(&self, query: impl Fn(&Analysis, &Path) -> Cancellable<T>) -> Option<T> {
        let (path, flags) = &self.input;
        loop {
            let snapshot = {
                let guard = lock_host();
                let host = guard.as_ref()?;
                if !host.holds(path, &self.text, flags) {
                    return None;
                }
                host.analysis()
            };
            let r = query(&snapshot, path);
            // Before anything else: a change may be waiting for this snapshot.
            drop(snapshot);
            if let Ok(v) = r {
                return Some(v);
            }
        }
    }

    /// `query` on a host of its own holding only this text: the answer for a version the
    /// server's host no longer holds (a request sent before a newer edit).
    fn ask_alone<T>(&self, query: impl Fn(&Analysis, &Path) -> Cancellable<T>) -> T {
        let (path, flags) = &self.input;
        let mut host = AnalysisHost::new();
        let mut change = Change::new();
        change.set_file(path.clone(), self.text.to_string(), flags.clone());
        host.apply_change(change);
        loop {
            // Nothing changes this host: a query is never cancelled.
            if let Ok(v) = query(&host.analysis(), path) {
                return v;
            }
        }
    }
}

/// How many libclang translation units the server keeps (the most recently analysed files'),
/// each with its precompiled preamble, so that the next edit of the file is a reparse.
const TU_CACHE_CAPACITY: usize = 8;

/// The server's analysis host. The lock guards it only while changes are applied and
/// snapshots taken; queries run on snapshots without the lock, so the analyses of different
/// files run in parallel. Applying a change cancels every snapshot's running queries (the
/// host waits until each is dropped): they return `Cancelled`. A snapshot never waits for
/// the lock, so a change cannot wait for a snapshot that waits for it.
static HOST: Mutex<Option<AnalysisHost>> = Mutex::new(None);

/// The host, made on first use; a lock poisoned by a panic while a change was applied may
/// hold a host mid-change, so it starts anew.
fn lock_host() -> std::sync::MutexGuard<'static, Option<AnalysisHost>> {
    HOST.lock().unwrap_or_else(|p| {
        let mut g = p.into_inner();
        *g = None;
        g
    })
}

/// Ends the server's host before the process exits: waits at most `limit` for it (a change
/// being applied) and for the preambles being made in the background, then drops the
/// translation units so that libclang deletes their preamble files.
pub fn release(limit: std::time::Duration) {
    let deadline = std::time::Instant::now() + limit;
    let host = loop {
        match HOST.try_lock() {
            Ok(mut g) => break g.take(),
            // A host poisoned mid-change is dropped all the same.
            Err(std::sync::TryLockError::Poisoned(p)) => break p.into_inner().take(),
            Err(std::sync::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Err(std::sync::TryLockError::WouldBlock) => return,
        }
    };
    if let Some(host) = host {
        host.close(deadline.saturating_duration_since(std::time::Instant::now()));
    }
}

/// An analysis stopped because its text was no longer current (a newer edit, new settings,
/// or the file was closed): nothing of it is to be published.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Superseded {
    /// Its queries were running and unwound (salsa cancellation), rather than not started.
    pub interrupted: bool,
}

/// The module and diagnostics (after `configs`) of `text` as the host computes them (only the call-graph
/// components the edit touched are analysed again), unless the text stops being
/// `is_current` first.
fn current_findings(
    path: &Path,
    text: &str,
    flags: Vec<String>,
    configs: &[&config::Config],
    is_current: &dyn Fn() -> bool,
) -> Result<Result<(Arc<Module>, Diagnostics), Superseded>, String> {
    let mut interrupted = false;
    loop {
        if !is_current() {
            return Ok(Err(Superseded { interrupted }));
        }
        let snapshot = {
            let mut guard = lock_host();
            // The PCHs of files' leading system headers are kept where `check` keeps its
            // shared headers: a file opened again in a later session parses sooner.
            let host = guard.get_or_insert_with(|| {
                AnalysisHost::for_editor(
                    TU_CACHE_CAPACITY,
                    omplens_analysis::frontend::cache_dir("pch-v1"),
                )
            });
            if !host.holds(path, text, &flags) {
                let mut change = Change::new();
                change.set_file(path, text.to_string(), flags.clone());
                // Waits for the running snapshots to unwind (they hold no lock).
                host.apply_change(change);
            }
            host.analysis()
        };
        let computed = (|| -> Cancellable<Result<_, String>> {
            let (t0, libclang0) = (
                std::time::Instant::now(),
                snapshot.tu_stats().libclang_micros,
            );
            let module = match snapshot.module(path)? {
                Ok(m) => m,
                Err(e) => return Ok(Err(e)),
            };
            let (t1, libclang1) = (
                std::time::Instant::now(),
                snapshot.tu_stats().libclang_micros,
            );
            let diagnostics = snapshot.diagnostics(path, configs)?;
            if crate::profiling() {
                // Editors show a server's stderr in its log; bench/lsp_latency.py reads it.
                let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
                let libclang = libclang1.saturating_sub(libclang0) as f64 / 1e3;
                eprintln!(
                    "omplens: profile {}: libclang {libclang:.1} ms, lowering {:.1} ms, \
                     analysis {:.1} ms",
                    path.display(),
                    (ms(t1 - t0) - libclang).max(0.0),
                    ms(t1.elapsed()),
                );
            }
            Ok(Ok((module, diagnostics)))
        })();
        // Dropped before anything else: a change waiting on the lock's side may be waiting
        // for this snapshot.
        drop(snapshot);
        match computed {
            Ok(r) => return r.map(Ok),
            // Cancelled by a change: to a newer text of this file (the loop's check ends
            // here), or to another file (this text is still current: compute it again; what
            // the cancelled run finished is kept).
            Err(_) => interrupted = true,
        }
    }
}

/// Drops what the host keeps for a closed file (its text and translation unit at once, the
/// results derived from it when the host next rebuilds). A running analysis of the file is
/// cancelled.
/// A file of the project changed on disk (the editor saved it): the open files read what
/// the project's other files do again (`omplens_analysis::project`).
pub fn project_changed() {
    let mut guard = lock_host();
    if let Some(host) = guard.as_mut() {
        let mut change = Change::new();
        change.project_changed();
        host.apply_change(change);
    }
}

pub fn forget(path: &Path) {
    let mut guard = lock_host();
    if let Some(host) = guard.as_mut() {
        let mut change = Change::new();
        change.remove_file(path);
        host.apply_change(change);
    }
}

/// The analysis of one version of a document, or why there is none.
#[derive(Debug)]
pub struct Analysed {
    pub version: i32,
    /// The settings generation it was computed under (see `State::invalidate`).
    pub generation: u64,
    /// The text the analysis saw, with its line starts.
    pub index: LineIndex,
    pub result: Result<FileAnalysis, String>,
}

/// Lowers and checks `text` (the contents of `path`) under `settings`; stops early when the
/// text stops being `is_current`.
pub fn analyse(
    path: &Path,
    text: &str,
    settings: &Settings,
    is_current: &dyn Fn() -> bool,
) -> Result<Result<FileAnalysis, Superseded>, String> {
    if let Ok(marker) = std::env::var(TEST_PANIC_ENV) {
        if !marker.is_empty() && text.contains(&marker) {
            panic!("test hook: the analysis panics on {marker:?}");
        }
    }
    omplens_analysis::project::set_database_dir(settings.compile_commands_dir.as_deref());
    let flags = flags::flags_for(
        path,
        settings.compile_commands_dir.as_deref(),
        &settings.flags,
    )
    .map_err(|e| format!("omplens could not read the compilation database: {e}"))?;
    if let Some(why) = &flags.skip {
        return Err(why.clone());
    }
    let input = (path.to_path_buf(), flags.args.clone());
    let (file_config, config_error) = match path.parent().map(config::discover) {
        Some(Ok(Some((_, c)))) => (c, None),
        Some(Err(e)) => (config::Config::default(), Some(e.to_string())),
        _ => (config::Config::default(), None),
    };
    let configs = [&file_config, &settings.checks];
    let (module, reported) = match current_findings(path, text, flags.args, &configs, is_current)? {
        Ok(c) => c,
        Err(s) => return Ok(Err(s)),
    };
    Ok(Ok(FileAnalysis {
        module,
        text: text.into(),
        findings: reported.findings,
        unknown_suppressions: reported.unknown_suppressions,
        config_error,
        input,
        plan: OnceLock::new(),
        view: OnceLock::new(),
        baseline: OnceLock::new(),
        verdicts: Mutex::new(HashMap::new()),
    }))
}

/// [`analyse`] on the calling (blocking) thread with any panic turned into an error, so one
/// file that trips a bug never takes the server down. Nothing here unwinds through libclang:
/// its callbacks only collect cursors (ARCHITECTURE.md, invariant 2).
pub fn analyse_guarded(
    path: Option<&Path>,
    text: Arc<str>,
    version: i32,
    settings: &Settings,
    is_current: &dyn Fn() -> bool,
) -> Result<Analysed, Superseded> {
    let result = match path {
        None => Err("omplens analyses files on disk only (file: URIs)".to_string()),
        Some(path) => {
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                analyse(path, &text, settings, is_current)
            })) {
                Ok(Ok(Err(s))) => return Err(s),
                Ok(Ok(Ok(a))) => Ok(a),
                Ok(Err(e)) => Err(e),
                Err(panic) => Err(format!(
                    "internal error: omplens panicked while analysing this file ({}); please \
                     report it",
                    super::guard::panic_message(&*panic)
                )),
            }
        }
    };
    Ok(Analysed {
        version,
        generation: 0,
        index: LineIndex::new(text),
        result,
    })
}
