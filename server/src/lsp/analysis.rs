//! The analysis boundary: the one place the server calls into the analysis. [`analyse`] takes
//! a file's path, its text and the settings, and returns owned, `Send` data that answers every
//! request (diagnostics, actions, hover, hints, lenses) without parsing again. A salsa
//! database can replace its body later; nothing else in the server touches libclang.

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
/// computed when first asked for (the server warms them after publishing diagnostics).
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
    plan: OnceLock<Result<Plan, String>>,
    view: OnceLock<FileView>,
}

impl FileAnalysis {
    /// The synthesized mappings, or why there are none (the file does not compile).
    pub fn plan(&self) -> &Result<Plan, String> {
        self.plan.get_or_init(|| {
            let errors = self.module.errors().count();
            if errors == 0 {
                Ok(plan::plan(&self.module))
            } else {
                Err(format!(
                    "the file has {errors} error{}; omplens only rewrites code that compiles",
                    if errors == 1 { "" } else { "s" }
                ))
            }
        })
    }

    /// What hover, inlay hints and code lenses show.
    pub fn view(&self) -> &FileView {
        self.view.get_or_init(|| {
            let facts = env::interpret(&self.module, &self.text);
            ide::view(&self.module, &facts)
        })
    }
}

/// The salsa database of the server, with an input per file path. One analysis at a time
/// holds it: setting an input needs the database alone.
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

static INCREMENTAL: Mutex<Option<Incremental>> = Mutex::new(None);

/// The findings of `text` as the database computes them (only the call-graph components the
/// edit touched are analysed again), and the module they were computed on.
fn incremental_findings(
    path: &Path,
    text: &str,
    flags: Vec<String>,
) -> Result<(Arc<Module>, Vec<Finding>), String> {
    // A panic while the lock was held leaves a database that may be mid-update: start anew.
    let mut guard = INCREMENTAL.lock().unwrap_or_else(|p| {
        let mut g = p.into_inner();
        *g = None;
        g
    });
    let inc = guard.get_or_insert_with(|| Incremental {
        db: db::Database::default(),
        files: HashMap::new(),
        closed: 0,
    });
    let file = match inc.files.get(path) {
        Some(f) => {
            let f = *f;
            if f.text(&inc.db) != text {
                f.set_text(&mut inc.db).to(text.to_string());
            }
            if *f.flags(&inc.db) != flags {
                f.set_flags(&mut inc.db).to(flags);
            }
            f
        }
        None => {
            let f = db::SourceFile::new(&inc.db, path.display().to_string(), text.into(), flags);
            inc.files.insert(path.to_path_buf(), f);
            f
        }
    };
    let parsed = db::parse(&inc.db, file);
    let module = match (&parsed.module, &parsed.error) {
        (Some(m), _) => m.clone(),
        (None, e) => {
            return Err(e
                .clone()
                .unwrap_or_else(|| "the file was not lowered".into()))
        }
    };
    let findings = db::file_findings(&inc.db, file);
    Ok((module, findings.to_vec()))
}

/// Drops what the database keeps for a closed file: its text at once, and everything derived
/// from it when the database is next made anew (see [`Incremental::closed`]).
pub fn forget(path: &Path) {
    if let Ok(mut guard) = INCREMENTAL.lock() {
        if let Some(inc) = guard.as_mut() {
            if let Some(f) = inc.files.remove(path) {
                f.set_text(&mut inc.db).to(String::new());
                inc.closed += 1;
            }
            if inc.closed >= RESET_AFTER_CLOSED {
                *guard = None;
            }
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

/// Lowers and checks `text` (the contents of `path`) under `settings`.
pub fn analyse(path: &Path, text: &str, settings: &Settings) -> Result<FileAnalysis, String> {
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
    let (module, findings) = incremental_findings(path, text, flags.args)?;
    let (file_config, config_error) = match path.parent().map(config::discover) {
        Some(Ok(Some((_, c)))) => (c, None),
        Some(Err(e)) => (config::Config::default(), Some(e.to_string())),
        _ => (config::Config::default(), None),
    };
    let reported = check::report(text, findings, &[&file_config, &settings.checks]);
    Ok(FileAnalysis {
        module,
        text: text.into(),
        findings: reported.findings,
        unknown_suppressions: reported.unknown_suppressions,
        config_error,
        plan: OnceLock::new(),
        view: OnceLock::new(),
    })
}

/// [`analyse`] on the calling (blocking) thread with any panic turned into an error, so one
/// file that trips a bug never takes the server down. Nothing here unwinds through libclang:
/// its callbacks only collect cursors (ARCHITECTURE.md, invariant 2).
pub fn analyse_guarded(
    path: Option<&Path>,
    text: Arc<str>,
    version: i32,
    settings: &Settings,
) -> Analysed {
    let result = match path {
        None => Err("omplens analyses files on disk only (file: URIs)".to_string()),
        Some(path) => {
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                analyse(path, &text, settings)
            })) {
                Ok(r) => r,
                Err(panic) => Err(format!(
                    "internal error: omplens panicked while analysing this file ({}); please \
                     report it",
                    super::guard::panic_message(&*panic)
                )),
            }
        }
    };
    Analysed {
        version,
        generation: 0,
        index: LineIndex::new(text),
        result,
    }
}
