//! The server's shared state and the analysis schedule.
//!
//! An edit schedules an analysis of the new version after the debounce delay (at once when the
//! text had not changed for a debounce interval before it, or when the version before it was
//! analysed and nothing runs: the first keystroke after a pause, or of an idle server, is not
//! held back); when the delay ends and a newer edit has arrived, this one does nothing
//! (the newer one has its own). The
//! analysis runs on a blocking thread (libclang is synchronous), at most one per core at a
//! time (an analysis that supersedes a running one of the same document does not queue
//! behind it), and its result is kept and published only if the document is still at that
//! version when it finishes. A newer edit cancels the running analysis of an older version
//! (salsa cancellation): it stops at its next query and publishes nothing. Requests (hover, actions, ...) wait for the analysis of the version they
//! were sent against, starting it at once if it is not running, and answer ContentModified
//! when a newer edit makes that version obsolete. Hover, inlay hints, code lenses and code
//! actions do not wait when an older analysis is at hand and the request's position is
//! outside the text changed since: they answer from it, marked ([`State::answer_from`]).

use super::analysis::{analyse_guarded, Analysed, Superseded};
use super::config::Settings;
use super::convert::LineIndex;
use super::diagnostics;
use super::documents::Documents;
use super::guard;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::sync::Semaphore;
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{ClientCapabilities, MessageType, Position, Uri};
use tower_lsp_server::Client;

/// How long a request waits for its analysis before giving up.
const REQUEST_WAIT: Duration = Duration::from_secs(60);

/// What the client said it supports (from `initialize`).
#[derive(Clone, Debug, Default)]
pub struct Caps {
    pub document_changes: bool,
    pub watch_registration: bool,
    pub work_done_progress: bool,
    pub inlay_hint_refresh: bool,
    pub code_lens_refresh: bool,
    pub configuration: bool,
}

impl Caps {
    pub fn of(c: &ClientCapabilities) -> Caps {
        let ws = c.workspace.as_ref();
        Caps {
            document_changes: ws
                .and_then(|w| w.workspace_edit.as_ref())
                .and_then(|e| e.document_changes)
                .unwrap_or(false),
            watch_registration: ws
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|d| d.dynamic_registration)
                .unwrap_or(false),
            work_done_progress: c
                .window
                .as_ref()
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false),
            inlay_hint_refresh: ws
                .and_then(|w| w.inlay_hint.as_ref())
                .and_then(|h| h.refresh_support)
                .unwrap_or(false),
            code_lens_refresh: ws
                .and_then(|w| w.code_lens.as_ref())
                .and_then(|l| l.refresh_support)
                .unwrap_or(false),
            configuration: ws.and_then(|w| w.configuration).unwrap_or(false),
        }
    }
}

pub struct State {
    pub client: Client,
    pub docs: Documents,
    pub settings: RwLock<Settings>,
    pub caps: RwLock<Caps>,
    /// The workspace root: relative `compileCommandsDir` settings are resolved against it.
    pub root: RwLock<Option<PathBuf>>,
    /// Bumped when the settings or the files they come from change: older analyses are stale.
    generation: AtomicU64,
    analyses: Arc<Semaphore>,
    /// `shutdown` was requested (the exit status is 0 only then).
    pub shut_down: AtomicBool,
    progress_tokens: AtomicU64,
}

impl State {
    pub fn new(client: Client) -> State {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        State {
            client,
            docs: Documents::default(),
            settings: RwLock::new(Settings::default()),
            caps: RwLock::new(Caps::default()),
            root: RwLock::new(None),
            generation: AtomicU64::new(0),
            analyses: Arc::new(Semaphore::new(cores)),
            shut_down: AtomicBool::new(false),
            progress_tokens: AtomicU64::new(0),
        }
    }

    pub fn settings(&self) -> Settings {
        self.settings
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn caps(&self) -> Caps {
        self.caps.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Installs new settings; relative paths are taken from the workspace root.
    pub fn set_settings(&self, mut s: Settings) -> Settings {
        if let (Some(dir), Some(root)) = (
            &s.compile_commands_dir,
            self.root.read().unwrap_or_else(|e| e.into_inner()).as_ref(),
        ) {
            if dir.is_relative() {
                s.compile_commands_dir = Some(root.join(dir));
            }
        }
        let mut slot = self.settings.write().unwrap_or_else(|e| e.into_inner());
        std::mem::replace(&mut *slot, s)
    }

    /// Makes every analysis so far stale (settings or configuration files changed).
    pub fn invalidate(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// Analyses `version` of `uri` after `delay`, unless a newer version has arrived by then.
    pub fn schedule(self: &Arc<Self>, uri: Uri, version: i32, delay: Duration) {
        let st = self.clone();
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            st.start(&uri, version);
        });
    }

    /// Starts the analysis of `version` unless the document has moved on, or that analysis
    /// is done or running already.
    fn start(self: &Arc<Self>, uri: &Uri, version: i32) {
        let generation = self.generation();
        let job = self.docs.with(uri, |d| {
            let done = d
                .analysis
                .as_ref()
                .is_some_and(|a| a.version == version && a.generation == generation);
            if d.version != version || done || d.running == Some((version, generation)) {
                return None;
            }
            // An older analysis still running is cancelled by this one's first write.
            let supersedes = d.running.is_some();
            d.running = Some((version, generation));
            Some((d.text.clone(), supersedes))
        });
        if let Some(Some((text, supersedes))) = job {
            tokio::spawn(
                self.clone()
                    .run(uri.clone(), version, generation, text, supersedes),
            );
        }
    }

    /// Whether `version` under `generation` is still what the document should show.
    fn is_current(&self, uri: &Uri, version: i32, generation: u64) -> bool {
        self.docs.version(uri) == Some(version) && self.generation() == generation
    }

    async fn run(
        self: Arc<Self>,
        uri: Uri,
        version: i32,
        generation: u64,
        text: String,
        supersedes: bool,
    ) {
        // The analysis this one supersedes holds a permit until it is cancelled: waiting
        // for that permit would only add the cancelled work's time to this edit's latency.
        let permit = if supersedes {
            None
        } else {
            match self.analyses.clone().acquire_owned().await {
                Ok(p) => Some(p),
                Err(_) => return,
            }
        };
        // While it waited for a core, a newer edit may have made this work moot.
        if self.docs.version(&uri) != Some(version) {
            self.docs.with(&uri, |d| {
                if d.running == Some((version, generation)) {
                    d.running = None;
                }
            });
            return;
        }
        let settings = self.settings();
        let path = file_path(&uri);
        let text: Arc<str> = text.into();
        let st = self.clone();
        let current_uri = uri.clone();
        let work = tokio::task::spawn_blocking(move || {
            let is_current = || st.is_current(&current_uri, version, generation);
            analyse_guarded(path.as_deref(), text, version, &settings, &is_current).map(|mut a| {
                a.generation = generation;
                a
            })
        })
        .await;
        drop(permit);
        let analysed = match work {
            Ok(Ok(a)) => Arc::new(a),
            Ok(Err(Superseded { interrupted })) => {
                self.docs.with(&uri, |d| {
                    if d.running == Some((version, generation)) {
                        d.running = None;
                    }
                });
                // Editors show a server's stderr in its log; tests read this line.
                eprintln!(
                    "omplens: analysis of version {version} of {} cancelled ({})",
                    uri.as_str(),
                    if interrupted {
                        "a newer edit interrupted it"
                    } else {
                        "a newer edit came before it started"
                    }
                );
                return;
            }
            // analyse_guarded catches panics; a JoinError means the runtime is going away.
            Err(_) => return,
        };
        let current = self
            .docs
            .with(&uri, |d| {
                if d.running == Some((version, generation)) {
                    d.running = None;
                }
                if d.version != version || generation != self.generation() {
                    return false;
                }
                d.analysis = Some(analysed.clone());
                d.analysed.send_replace(Some(analysed.clone()));
                true
            })
            .unwrap_or(false);
        if current {
            self.publish(&uri, &analysed).await;
            // Hover, hints, lenses and actions come next: prepare their data off the runtime
            // once the user pauses for a debounce interval. It runs the view and plan queries
            // of the edited component on the database, and a newer edit would wait for them.
            let a = analysed.clone();
            let st = self.clone();
            let pause = self.settings().debounce;
            tokio::spawn(async move {
                tokio::time::sleep(pause).await;
                if !st.is_current(&uri, version, generation) {
                    return;
                }
                tokio::task::spawn_blocking(move || {
                    let _ = std::panic::catch_unwind(|| {
                        if let Ok(fa) = &a.result {
                            fa.warm();
                        }
                    });
                });
            });
        }
    }

    async fn publish(&self, uri: &Uri, a: &Analysed) {
        let started = std::time::Instant::now();
        let base = self.settings().docs_base_url;
        let diags = diagnostics::of(uri, a, base.as_deref());
        self.client
            .publish_diagnostics(uri.clone(), diags, Some(a.version))
            .await;
        if crate::profiling() {
            eprintln!(
                "omplens: profile {}: publication {:.1} ms",
                uri.as_str(),
                started.elapsed().as_secs_f64() * 1e3
            );
        }
        // Closed meanwhile: take back what was just published.
        if self.docs.version(uri).is_none() {
            self.client
                .publish_diagnostics(uri.clone(), Vec::new(), None)
                .await;
        }
    }

    /// The analysis of the document's current version, waiting for it (and starting it now if
    /// needed). None when the document is not open.
    pub async fn analysis(self: &Arc<Self>, uri: &Uri) -> jsonrpc::Result<Option<Arc<Analysed>>> {
        let generation = self.generation();
        let Some((version, ready, mut rx)) = self.docs.with(uri, |d| {
            let ready = d
                .analysis
                .clone()
                .filter(|a| a.version == d.version && a.generation == generation);
            (d.version, ready, d.analysed.subscribe())
        }) else {
            return Ok(None);
        };
        if let Some(a) = ready {
            return Ok(Some(a));
        }
        self.start(uri, version);
        let wait = async {
            loop {
                if rx.changed().await.is_err() {
                    return Ok(None); // closed
                }
                let latest = rx.borrow_and_update().clone();
                if let Some(a) = latest {
                    if a.version == version {
                        return Ok(Some(a));
                    }
                }
                if self.docs.version(uri) != Some(version) {
                    return Err(guard::content_modified());
                }
            }
        };
        match tokio::time::timeout(REQUEST_WAIT, wait).await {
            Ok(r) => r,
            Err(_) => Err(guard::internal(
                "the analysis of this document did not finish in time",
            )),
        }
    }

    /// What a request about `uri` answers from: the analysis of the current version when it
    /// is ready; else, at once, the last finished analysis of an older version, through an
    /// index that speaks its offsets and the current text's positions (`stale` is its
    /// version), unless `anchor` (the request's position) lies in the text changed since;
    /// else the current version's analysis, waited for. The current version's analysis is
    /// started either way.
    pub async fn answer_from(
        self: &Arc<Self>,
        uri: &Uri,
        anchor: Option<Position>,
    ) -> jsonrpc::Result<Option<Answer>> {
        let generation = self.generation();
        let Some(found) = self.docs.with(uri, |d| {
            let last = d
                .analysis
                .clone()
                .filter(|a| a.generation == generation && a.result.is_ok());
            (d.version, d.text.clone(), last)
        }) else {
            return Ok(None);
        };
        let (version, text, last) = found;
        if let Some(a) = last {
            if a.version == version {
                let index = a.index.clone();
                return Ok(Some(Answer {
                    analysed: a,
                    index,
                    stale: None,
                }));
            }
            let index = a.index.shifted(text.into());
            if anchor.is_none_or(|p| !index.touches_change(p)) {
                self.start(uri, version);
                let stale = Some(a.version);
                return Ok(Some(Answer {
                    analysed: a,
                    index,
                    stale,
                }));
            }
        }
        Ok(self.analysis(uri).await?.map(|a| Answer {
            index: a.index.clone(),
            analysed: a,
            stale: None,
        }))
    }

    /// Analyses every open document again (settings or a compilation database changed),
    /// with progress shown where the client supports it.
    pub async fn reanalyse_all(self: &Arc<Self>, why: &str) {
        self.invalidate();
        let uris = self.docs.uris();
        if uris.is_empty() {
            return;
        }
        let progress = if self.caps().work_done_progress {
            let n = self.progress_tokens.fetch_add(1, Ordering::SeqCst);
            let token = tower_lsp_server::ls_types::NumberOrString::String(format!(
                "omplens/reanalyse/{n}"
            ));
            match self.client.create_work_done_progress(token.clone()).await {
                Ok(()) => Some(
                    self.client
                        .progress(token, "omplens")
                        .with_message(format!("{why}: analysing {} files", uris.len()))
                        .with_percentage(0)
                        .begin()
                        .await,
                ),
                Err(_) => None,
            }
        } else {
            None
        };
        let total = uris.len();
        for (i, uri) in uris.iter().enumerate() {
            if let Err(e) = self.analysis(uri).await {
                self.client
                    .log_message(
                        MessageType::WARNING,
                        format!("{}: {}", uri.as_str(), e.message),
                    )
                    .await;
            }
            if let Some(p) = &progress {
                let pct = ((i + 1) * 100 / total) as u32;
                p.report_with_message(format!("{}/{total}", i + 1), pct)
                    .await;
            }
        }
        if let Some(p) = progress {
            p.finish_with_message("done").await;
        }
    }
}

/// The analysis a request answers from (see [`State::answer_from`]).
pub struct Answer {
    pub analysed: Arc<Analysed>,
    /// Offsets of the analysed text; positions of the document's current text.
    pub index: LineIndex,
    /// The version analysed, when it is older than the document's (a newer analysis runs).
    pub stale: Option<i32>,
}

/// The path of a `file:` URI (other schemes, e.g. `untitled:`, have none).
pub fn file_path(uri: &Uri) -> Option<PathBuf> {
    let is_file = uri.scheme().as_str().eq_ignore_ascii_case("file");
    is_file
        .then(|| uri.to_file_path().map(|p| p.into_owned()))
        .flatten()
}
