//! [`AnalysisHost`]: the owner of the database, with one salsa input per file path.

use super::snapshot::Analysis;
use crate::db::{self, SourceFile};
use salsa::Setter;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Files closed (removed) before the database starts anew. Salsa keeps a removed file's
/// input and the results derived from its last text (they are replaced only when asked for
/// again), so after this many removals the host rebuilds its database with the files still
/// open: memory stays bounded however many files come and go.
const RESET_AFTER_REMOVED: usize = 16;

/// What one file becomes.
#[derive(Clone, Debug)]
enum FileChange {
    Set { text: String, flags: Vec<String> },
    Remove,
}

/// A batch of changes, applied at once by [`AnalysisHost::apply_change`].
#[derive(Clone, Debug, Default)]
pub struct Change {
    files: Vec<(PathBuf, FileChange)>,
    /// Files of the project outside the host changed (saved by an editor): what each file
    /// read of them (`project::attach`) is read again.
    project_changed: bool,
}

impl Change {
    pub fn new() -> Change {
        Change::default()
    }

    /// The file at `path` now has `text`, compiled with `flags`.
    pub fn set_file(&mut self, path: impl Into<PathBuf>, text: String, flags: Vec<String>) {
        self.files
            .push((path.into(), FileChange::Set { text, flags }));
    }

    /// The file at `path` is closed: its text, translation unit and results are dropped.
    pub fn remove_file(&mut self, path: impl Into<PathBuf>) {
        self.files.push((path.into(), FileChange::Remove));
    }

    /// Other files of the project changed on disk.
    pub fn project_changed(&mut self) {
        self.project_changed = true;
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && !self.project_changed
    }
}

/// The analysis state of a set of files. Applying a change cancels the queries running on
/// snapshots and waits until they are dropped.
pub struct AnalysisHost {
    db: db::Database,
    files: Arc<HashMap<PathBuf, SourceFile>>,
    removed: usize,
    tu_cache: Option<usize>,
    /// With `tu_cache`: where the PCHs of files' leading system headers are kept.
    header_store: Option<PathBuf>,
    shared_headers: Option<Arc<crate::frontend::SharedHeaders>>,
    /// The revision of the project's files outside the host (see [`Change::project_changed`]).
    project: u64,
}

impl Default for AnalysisHost {
    fn default() -> Self {
        AnalysisHost::new()
    }
}

impl AnalysisHost {
    /// A host that parses every text afresh (the command line: each file is parsed once).
    pub fn new() -> AnalysisHost {
        AnalysisHost {
            db: db::Database::default(),
            files: Arc::default(),
            removed: 0,
            tu_cache: None,
            header_store: None,
            shared_headers: None,
            project: 0,
        }
    }

    /// A host for a run over many files that parses each after the system headers `shared`
    /// precompiled for the run (see [`crate::frontend::SharedHeaders`]).
    pub fn with_shared_headers(shared: Arc<crate::frontend::SharedHeaders>) -> AnalysisHost {
        AnalysisHost {
            db: db::Database::with_shared_headers(shared.clone()),
            shared_headers: Some(shared),
            ..AnalysisHost::new()
        }
    }

    /// A host that keeps the translation units of the `capacity` most recently parsed files
    /// and reparses them with a precompiled preamble on the next text (an editor).
    pub fn with_tu_cache(capacity: usize) -> AnalysisHost {
        AnalysisHost::for_editor(capacity, None)
    }

    /// [`Self::with_tu_cache`], with the PCHs of files' leading system headers kept in
    /// `header_store` (omplens's disk cache) between sessions: a file's first parse reads
    /// them from there when an earlier session left them (see
    /// [`crate::frontend::TuCache::with_header_store`]).
    pub fn for_editor(capacity: usize, header_store: Option<PathBuf>) -> AnalysisHost {
        AnalysisHost {
            db: db::Database::with_tu_cache_store(capacity, header_store.clone()),
            files: Arc::default(),
            removed: 0,
            tu_cache: Some(capacity),
            header_store,
            shared_headers: None,
            project: 0,
        }
    }

    /// Ends the host: waits at most `limit` for the preambles being made in the background,
    /// then drops its translation units (libclang deletes their preamble files). Units that
    /// running snapshots still use go when those snapshots are dropped.
    pub fn close(self, limit: std::time::Duration) {
        if let Some(cache) = db::Db::tu_cache(&self.db) {
            cache.settle_within(limit);
            // Snapshots still running hold the cache itself: drop its units now.
            cache.clear();
        }
    }

    /// A snapshot to ask questions of; drop it before the next change.
    pub fn analysis(&self) -> Analysis {
        Analysis::new(self.db.clone(), self.files.clone())
    }

    /// Whether the host holds exactly this text and these flags for `path`.
    pub fn holds(&self, path: &Path, text: &str, flags: &[String]) -> bool {
        self.files
            .get(path)
            .is_some_and(|f| f.text(&self.db) == text && f.flags(&self.db) == flags)
    }

    /// Applies every change of the batch. Waits until running snapshots are dropped (their
    /// queries are cancelled first).
    pub fn apply_change(&mut self, change: Change) {
        let mut removed_any = false;
        for (path, c) in change.files {
            match c {
                FileChange::Set { text, flags } => self.set(path, text, flags),
                FileChange::Remove => {
                    self.remove(&path);
                    removed_any = true;
                }
            }
        }
        if removed_any && self.removed >= RESET_AFTER_REMOVED {
            self.rebuild();
        }
        if change.project_changed {
            self.project += 1;
            for f in self.files.values() {
                f.set_project(&mut self.db).to(self.project);
            }
        }
    }

    fn set(&mut self, path: PathBuf, text: String, flags: Vec<String>) {
        if let Some(&f) = self.files.get(&path) {
            if *f.text(&self.db) != text {
                f.set_text(&mut self.db).to(text);
            }
            if *f.flags(&self.db) != flags {
                f.set_flags(&mut self.db).to(flags);
            }
            return;
        }
        let f = SourceFile::new(
            &self.db,
            path.display().to_string(),
            text,
            flags,
            self.project,
        );
        Arc::make_mut(&mut self.files).insert(path, f);
    }

    fn remove(&mut self, path: &Path) {
        self.db.forget_tu(&path.display().to_string());
        if let Some(f) = Arc::make_mut(&mut self.files).remove(path) {
            f.set_text(&mut self.db).to(String::new());
            self.removed += 1;
        }
    }

    /// A new database holding the open files' current inputs.
    fn rebuild(&mut self) {
        let open: Vec<(PathBuf, String, Vec<String>)> = self
            .files
            .iter()
            .map(|(p, f)| {
                (
                    p.clone(),
                    f.text(&self.db).clone(),
                    f.flags(&self.db).clone(),
                )
            })
            .collect();
        let mut fresh = match (self.tu_cache, &self.shared_headers) {
            (Some(n), _) => AnalysisHost::for_editor(n, self.header_store.clone()),
            (None, Some(s)) => AnalysisHost::with_shared_headers(s.clone()),
            (None, None) => AnalysisHost::new(),
        };
        fresh.project = self.project;
        for (p, t, fl) in open {
            fresh.set(p, t, fl);
        }
        *self = fresh;
    }

    /// Translation units parsed and reparsed through the cache (zero without one).
    pub fn tu_stats(&self) -> crate::frontend::TuStats {
        self.db.tu_stats()
    }

    /// The analyses run since the last call (for tests that count re-analysis).
    pub fn take_log(&self) -> Vec<String> {
        self.db.take_log()
    }
}
