//! The analysis boundary: the one place the server calls into the analysis. [`analyse`] takes
//! a file's path, its text and the settings, and returns owned, `Send` data that answers every
//! request (diagnostics, actions, hover, hints, lenses) without parsing again. Behind it is
//! a salsa database (queries on clones, cancelled by newer edits) whose `parse` keeps each
//! file's translation unit for a reparse; nothing else in the server touches libclang.

use super::config::Settings;
use super::convert::LineIndex;
use omplens_analysis::check::{self, config, env, Finding};
use omplens_analysis::db;
use omplens_analysis::frontend::flags;
use omplens_analysis::ide::{self, FileView};
use omplens_analysis::ir::Module;
use omplens_analysis::plan::{self, Plan};
use salsa::Setter;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Set in tests only: the analysis of a text containing this value panics (to check that a
/// panic is contained).
pub const TEST_PANIC_ENV: &str = "OMPLENS_LSP_TEST_PANIC";

/// Everything known about one version of a file. Diagnostics come from the incremental
/// database at once; the editor view (hover, hints, lenses) and the synthesized plan are
/// asked of it when first needed (the server warms them after publishing diagnostics): only
/// the call-graph components an edit touched compute theirs again.
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
    /// The database's key of this text: (path, compile flags).
    input: (PathBuf, Vec<String>),
    plan: OnceLock<Result<Plan, String>>,
    view: OnceLock<Arc<FileView>>,
}

impl FileAnalysis {
    /// The synthesized mappings, or why there are none (the file does not compile).
    pub fn plan(&self) -> &Result<Plan, String> {
        self.plan.get_or_init(|| {
            self.plan_from_db()
                .unwrap_or_else(|| Ok(plan::plan(&self.module)))
        })
    }

    /// What hover, inlay hints and code lenses show.
    pub fn view(&self) -> &FileView {
        self.view.get_or_init(|| {
            self.view_from_db().unwrap_or_else(|| {
                let facts = env::interpret(&self.module, &self.text);
                Arc::new(ide::view(&self.module, &facts))
            })
        })
    }

    /// Computes the view and the plan from the database while it holds this text, and
    /// nothing otherwise: a newer text is being analysed, and the whole-file work an old
    /// version needs is left to a request that asks for it ([`Self::view`], [`Self::plan`]).
    pub fn warm(&self) {
        if self.view.get().is_none() {
            if let Some(v) = self.view_from_db() {
                let _ = self.view.set(v);
            }
        }
        if self.plan.get().is_none() {
            if let Some(p) = self.plan_from_db() {
                let _ = self.plan.set(p);
            }
        }
    }

    /// The plan as [`Self::plan`] says it, if the database can tell (None: it holds a newer
    /// text).
    fn plan_from_db(&self) -> Option<Result<Plan, String>> {
        let errors = self.module.errors().count();
        if errors > 0 {
            return Some(Err(format!(
                "the file has {errors} error{}; omplens only rewrites code that compiles",
                if errors == 1 { "" } else { "s" }
            )));
        }
        let parts = self.ask_db(|db, f| db::piece_plans(db, f))?;
        Some(Ok(db::combine_plans(&parts, &self.module)))
    }

    /// The view from the database's pieces (None: it holds a newer text). The pieces' views
    /// are moved to the file after the database's clone is dropped.
    fn view_from_db(&self) -> Option<Arc<FileView>> {
        let parts = self.ask_db(|db, f| db::piece_views(db, f))?;
        Some(Arc::new(db::combine_views(&parts)))
    }

    /// `query` on a clone of the database while it still holds this text (like
    /// [`incremental_findings`]: outside the lock, again when a write elsewhere cancels it).
    /// None once the file has a newer text or flags there: the caller then computes over the
    /// whole of this text, as an old version's requests need.
    fn ask_db<T>(&self, query: impl Fn(&db::Database, db::SourceFile) -> T) -> Option<T> {
        let (path, flags) = &self.input;
        loop {
            let (snapshot, file) = {
                let guard = lock_incremental();
                let inc = guard.as_ref()?;
                let file = *inc.files.get(path)?;
                if *file.text(&inc.db) != *self.text || file.flags(&inc.db) != flags {
                    return None;
                }
                (inc.db.clone(), file)
            };
            let r =
                salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| query(&snapshot, file)));
            // Before anything else: a writer may be waiting for this clone.
            drop(snapshot);
            if let Ok(v) = r {
                return Some(v);
            }
        }
    }
}

/// The salsa database of the server, with an input per file path. The lock guards this
/// master handle only while inputs are set; queries run on clones without the lock, so the
/// analyses of different files run in parallel. Setting an input cancels every clone's
/// running queries (salsa waits until each clone is dropped): they unwind with
/// `salsa::Cancelled` at their next query call. A clone never waits for the lock, so the
/// write cannot wait for a clone that waits for it.
struct Incremental {
    db: db::Database,
    files: HashMap<PathBuf, db::SourceFile>,
    /// Files closed since the database was made. Salsa keeps a closed file's input and the
    /// results derived from its last text (they are only replaced when asked for again), so
    /// after [`RESET_AFTER_CLOSED`] closes the database starts anew: open files are
    /// analysed in full once more, and memory stays bounded however many files come and go.
    closed: usize,
}

const RESET_AFTER_CLOSED: usize = 16;

/// How many libclang translation units the server keeps (the most recently analysed files'),
/// each with its precompiled preamble, so that the next edit of the file is a reparse.
const TU_CACHE_CAPACITY: usize = 8;

static INCREMENTAL: Mutex<Option<Incremental>> = Mutex::new(None);

/// The master database, made on first use; a lock poisoned by a panic while inputs were set
/// may hold a database mid-update, so it starts anew.
fn lock_incremental() -> std::sync::MutexGuard<'static, Option<Incremental>> {
    INCREMENTAL.lock().unwrap_or_else(|p| {
        let mut g = p.into_inner();
        *g = None;
        g
    })
}

fn incremental(guard: &mut Option<Incremental>) -> &mut Incremental {
    guard.get_or_insert_with(|| Incremental {
        db: db::Database::with_tu_cache(TU_CACHE_CAPACITY),
        files: HashMap::new(),
        closed: 0,
    })
}

/// What the database says about one text of a file.
type Computed = (Arc<Module>, Vec<Finding>);

/// An analysis stopped because its text was no longer current (a newer edit, new settings,
/// or the file was closed): nothing of it is to be published.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Superseded {
    /// Its queries were running and unwound (salsa cancellation), rather than not started.
    pub interrupted: bool,
}

/// The findings of `text` as the database computes them (only the call-graph components the
/// edit touched are analysed again), and the module they were computed on, unless the text
/// stops being `is_current` first.
fn incremental_findings(
    path: &Path,
    text: &str,
    flags: Vec<String>,
    is_current: &dyn Fn() -> bool,
) -> Result<Result<Computed, Superseded>, String> {
    let mut interrupted = false;
    loop {
        if !is_current() {
            return Ok(Err(Superseded { interrupted }));
        }
        let (snapshot, file) = {
            let mut guard = lock_incremental();
            let inc = incremental(&mut guard);
            let file = match inc.files.get(path) {
                Some(f) => {
                    let f = *f;
                    // Each set waits for the running clones to unwind (they hold no lock).
                    if f.text(&inc.db) != text {
                        f.set_text(&mut inc.db).to(text.to_string());
                    }
                    if *f.flags(&inc.db) != flags {
                        f.set_flags(&mut inc.db).to(flags.clone());
                    }
                    f
                }
                None => {
                    let f = db::SourceFile::new(
                        &inc.db,
                        path.display().to_string(),
                        text.into(),
                        flags.clone(),
                    );
                    inc.files.insert(path.to_path_buf(), f);
                    f
                }
            };
            (inc.db.clone(), file)
        };
        // libclang runs inside `parse` and returns before any cancellation check: salsa
        // checks between query calls, so a `Cancelled` unwind never crosses a C frame.
        let computed = salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| {
            let parsed = db::parse(&snapshot, file);
            let module = match (&parsed.module, &parsed.error) {
                (Some(m), _) => m.clone(),
                (None, e) => {
                    return Err(e
                        .clone()
                        .unwrap_or_else(|| "the file was not lowered".into()))
                }
            };
            let findings = db::file_findings(&snapshot, file);
            Ok((module, findings.to_vec()))
        }));
        // Dropped before anything else: a writer waiting on the lock's side may be waiting
        // for this clone.
        drop(snapshot);
        match computed {
            Ok(r) => return r.map(Ok),
            // Cancelled by a write: of a newer text of this file (the loop's check ends
            // here), or of another file (this text is still current: compute it again; what
            // the cancelled run finished is kept).
            Err(_) => interrupted = true,
        }
    }
}

/// Drops what the database keeps for a closed file: its text and translation unit at once,
/// and everything derived from it when the database is next made anew (see
/// [`Incremental::closed`]). A running analysis of the file is cancelled.
pub fn forget(path: &Path) {
    let mut guard = lock_incremental();
    if let Some(inc) = guard.as_mut() {
        inc.db.forget_tu(&path.display().to_string());
        if let Some(f) = inc.files.remove(path) {
            f.set_text(&mut inc.db).to(String::new());
            inc.closed += 1;
        }
        if inc.closed >= RESET_AFTER_CLOSED {
            *guard = None;
        }
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
    let flags = flags::flags_for(
        path,
        settings.compile_commands_dir.as_deref(),
        &settings.flags,
    )
    .map_err(|e| format!("omplens could not read the compilation database: {e}"))?;
    let input = (path.to_path_buf(), flags.args.clone());
    let (module, findings) = match incremental_findings(path, text, flags.args, is_current)? {
        Ok(c) => c,
        Err(s) => return Ok(Err(s)),
    };
    let (file_config, config_error) = match path.parent().map(config::discover) {
        Some(Ok(Some((_, c)))) => (c, None),
        Some(Err(e)) => (config::Config::default(), Some(e.to_string())),
        _ => (config::Config::default(), None),
    };
    let reported = check::report(text, findings, &[&file_config, &settings.checks]);
    Ok(Ok(FileAnalysis {
        module,
        text: text.into(),
        findings: reported.findings,
        unknown_suppressions: reported.unknown_suppressions,
        config_error,
        input,
        plan: OnceLock::new(),
        view: OnceLock::new(),
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
