//! The analysis boundary: the one place the server calls into the analysis. [`analyse`] takes
//! a file's path, its text and the settings, and returns owned, `Send` data that answers every
//! request (diagnostics, actions, hover, hints, lenses) without parsing again. A salsa
//! database can replace its body later; nothing else in the server touches libclang.

use super::config::Settings;
use super::convert::LineIndex;
use omplens_analysis::check::{self, config, env, Finding};
use omplens_analysis::frontend::{self, flags};
use omplens_analysis::ide::{self, FileView};
use omplens_analysis::ir::{Module, Severity};
use omplens_analysis::plan::{self, Plan};
use std::path::Path;
use std::sync::Arc;

/// Set in tests only: the analysis of a text containing this value panics (to check that a
/// panic is contained).
pub const TEST_PANIC_ENV: &str = "OMPLENS_LSP_TEST_PANIC";

/// Everything known about one version of a file.
#[derive(Debug)]
pub struct FileAnalysis {
    pub module: Module,
    /// After inline suppressions, `.omplens.toml` and the client's `checks`.
    pub findings: Vec<Finding>,
    /// Names in `omplens: ignore[...]` comments that are no rule: (offset, name).
    pub unknown_suppressions: Vec<(u32, String)>,
    /// Why the nearest `.omplens.toml` was not used, if it is invalid.
    pub config_error: Option<String>,
    /// The synthesized mappings, or why there are none (the file does not compile).
    pub plan: Result<Plan, String>,
    pub view: FileView,
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

/// Lowers, checks and plans `text` (the contents of `path`) under `settings`.
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
    let module = frontend::lower_file(path, Some(text), &flags.args).map_err(|e| e.to_string())?;
    let (file_config, config_error) = match path.parent().map(config::discover) {
        Some(Ok(Some((_, c)))) => (c, None),
        Some(Err(e)) => (config::Config::default(), Some(e.to_string())),
        _ => (config::Config::default(), None),
    };
    let facts = env::interpret(&module, text);
    let reported = check::report(
        text,
        check::check_facts(&module, text, &facts),
        &[&file_config, &settings.checks],
    );
    let view = ide::view(&module, &facts);
    let errors = module
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let plan = if errors == 0 {
        Ok(plan::plan(&module))
    } else {
        Err(format!(
            "the file has {errors} error{}; omplens only rewrites code that compiles",
            if errors == 1 { "" } else { "s" }
        ))
    };
    Ok(FileAnalysis {
        module,
        findings: reported.findings,
        unknown_suppressions: reported.unknown_suppressions,
        config_error,
        plan,
        view,
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
