//! [`Analysis`]: a snapshot of the host that answers questions about one file at a time.
//! Every answer comes from the database's queries (only the call-graph components an edit
//! touched are analysed again) and is `Err(Cancelled)` when the host took a change meanwhile.

use super::Cancellable;
use crate::check::{self, config::Config, Finding};
use crate::db::{self, SourceFile};
use crate::ir::Module;
use crate::plan::Plan;
use crate::view::FileView;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A file's findings as a user sees them.
#[derive(Clone, Debug)]
pub struct Diagnostics {
    /// After inline suppressions and the given configurations, in source order.
    pub findings: Vec<Finding>,
    /// Names in `omplens: ignore[...]` comments that are no rule: (offset, name).
    pub unknown_suppressions: Vec<(u32, String)>,
}

/// A snapshot of an [`super::AnalysisHost`]. Cheap to make; drop it before the host's next
/// change (the change waits for it).
pub struct Analysis {
    db: db::Database,
    files: Arc<HashMap<PathBuf, SourceFile>>,
}

impl Analysis {
    pub(super) fn new(db: db::Database, files: Arc<HashMap<PathBuf, SourceFile>>) -> Analysis {
        Analysis { db, files }
    }

    /// `f` over the database, with salsa's cancellation caught. libclang runs inside `parse`
    /// and returns before any cancellation check, so the unwind never crosses a C frame.
    fn with<T>(&self, f: impl FnOnce(&db::Database) -> T) -> Cancellable<T> {
        salsa::Cancelled::catch(AssertUnwindSafe(|| f(&self.db)))
    }

    fn file(&self, path: &Path) -> Result<SourceFile, String> {
        self.files
            .get(path)
            .copied()
            .ok_or_else(|| format!("{}: not a file of the analysis", path.display()))
    }

    /// Parses and reparses made through the host's translation-unit cache so far, with the
    /// time spent in libclang (zero without a cache).
    pub fn tu_stats(&self) -> crate::frontend::TuStats {
        self.db.tu_stats()
    }

    /// The text the analysis holds for `path`.
    pub fn text(&self, path: &Path) -> Option<String> {
        let f = self.files.get(path)?;
        Some(f.text(&self.db).clone())
    }

    /// The lowered module, or why there is none (libclang refused the arguments, ...).
    pub fn module(&self, path: &Path) -> Cancellable<Result<Arc<Module>, String>> {
        let Ok(file) = self.file(path) else {
            return Ok(Err(format!(
                "{}: not a file of the analysis",
                path.display()
            )));
        };
        self.with(|db| {
            let parsed = db::parse(db, file);
            match (&parsed.module, &parsed.error) {
                (Some(m), _) => Ok(m.clone()),
                (None, e) => Err(e
                    .clone()
                    .unwrap_or_else(|| "the file was not lowered".into())),
            }
        })
    }

    /// Every finding of the rules, before suppressions and configuration, in source order.
    pub fn findings(&self, path: &Path) -> Cancellable<Arc<Vec<Finding>>> {
        let Ok(file) = self.file(path) else {
            return Ok(Arc::default());
        };
        self.with(|db| db::file_findings(db, file))
    }

    /// The findings left after the file's inline suppressions and `configs` (applied in
    /// order), with the suppression comments that name no rule.
    pub fn diagnostics(&self, path: &Path, configs: &[&Config]) -> Cancellable<Diagnostics> {
        let findings = self.findings(path)?;
        let text = self.text(path).unwrap_or_default();
        let reported = check::report(&text, findings.to_vec(), configs);
        Ok(Diagnostics {
            findings: reported.findings,
            unknown_suppressions: reported.unknown_suppressions,
        })
    }

    /// The synthesized data mappings of the file, or why there are none (it does not
    /// compile, was not lowered, or requires unified shared memory).
    pub fn plan(&self, path: &Path) -> Cancellable<Result<Plan, String>> {
        let module = match self.module(path)? {
            Ok(m) => m,
            Err(e) => return Ok(Err(e)),
        };
        if module.unified_shared_memory().is_some() {
            return Ok(Err(
                "the file requires unified_shared_memory: host and device share memory, so \
                 omplens writes no data mappings for it"
                    .to_string(),
            ));
        }
        let errors = module.errors().count();
        if errors > 0 {
            return Ok(Err(format!(
                "the file has {errors} error{}; omplens only rewrites code that compiles",
                if errors == 1 { "" } else { "s" }
            )));
        }
        let file = match self.file(path) {
            Ok(f) => f,
            Err(e) => return Ok(Err(e)),
        };
        // A file checked whole (bodies from the project's headers) is planned whole too, with
        // what those bodies do; the others from their pieces, moved back outside the query.
        if db::checked_whole(&module) {
            return Ok(Ok(self.with(|db| db::file_plan(db, file))?));
        }
        let parts = self.with(|db| db::piece_plans(db, file))?;
        Ok(Ok(db::combine_plans(&parts, &module)))
    }

    /// What hover, inlay hints and code lenses show: per directive its copies, per access
    /// the reference counts and validity.
    pub fn view(&self, path: &Path) -> Cancellable<FileView> {
        let Ok(file) = self.file(path) else {
            return Ok(FileView::default());
        };
        if let Ok(module) = self.module(path)? {
            if db::checked_whole(&module) {
                return self.with(|db| db::file_view(db, file));
            }
        }
        let parts = self.with(|db| db::piece_views(db, file))?;
        Ok(db::combine_views(&parts))
    }
}
