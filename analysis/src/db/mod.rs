//! The incremental layer: a salsa database whose inputs are file texts and compile flags.
//!
//! ```text
//! SourceFile (path, text, flags)
//!   └─ parse            libclang → owned IR (re-runs on every edit of the file)
//!       └─ pieces       the call graph's connected components, each a self-contained module
//!           └─ component  one component, by its first function's name; equal across edits
//!               │         elsewhere, so salsa backdates it and stops here
//!               ├─ piece_facts      AST-CFG, effects, data environment (the work, once)
//!               │   ├─ piece_findings   the rules over the facts
//!               │   └─ piece_view       hover facts, editor view (views.rs)
//!               └─ piece_plan       mapping synthesis (views.rs)
//!       └─ file_findings            every piece's findings mapped back to the file
//!       └─ file_view, file_plan     every piece's view and plan mapped back (offsets, ids)
//!       └─ whole_file_facts         a file with bodies from project headers: checked whole
//!                                   (findings, view and plan of the whole module)
//! ```
//!
//! Typing inside one function re-runs `parse` and the cheap extraction, and the analysis of
//! that function's component only. libclang objects never enter the database: `parse` keeps
//! the owned `Module`. A database made [`Database::with_tu_cache`] (the language server's)
//! keeps each file's translation unit in a side cache and reparses it with a precompiled
//! preamble; the module is the same as a fresh parse's, so `parse` still depends on its
//! inputs only.

pub mod piece;
mod views;

pub use views::{
    checked_whole, combine_plans, combine_views, file_plan, file_view, piece_plan, piece_plans,
    piece_view, piece_views,
};

use crate::check::{self, env, Finding};
use crate::frontend::{SharedHeaders, TuCache, TuStats};
use crate::ir::{Module, Span};
use piece::{Piece, PieceBody, Segment};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// A file the database knows: its path, current text and compile flags.
#[salsa::input]
pub struct SourceFile {
    #[returns(ref)]
    pub path: String,
    #[returns(ref)]
    pub text: String,
    #[returns(ref)]
    pub flags: Vec<String>,
    /// Bumped when other files of the project change (an editor saved one): what `parse`
    /// read from them (`project::attach`) is read again.
    pub project: u64,
}

/// One component of a file, named by its first function.
#[salsa::interned]
pub struct PieceSlot<'db> {
    pub file: SourceFile,
    #[returns(ref)]
    pub name: String,
}

/// The lowered file, or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub module: Option<Arc<Module>>,
    pub error: Option<String>,
}

/// Queries the database answers, with a log of the analyses it ran (for tests and
/// benchmarks that count re-analysis).
#[salsa::db]
pub trait Db: salsa::Database {
    fn log_execution(&self, what: String);
    /// Where `parse` keeps translation units between texts of a file, if anywhere.
    fn tu_cache(&self) -> Option<&TuCache>;
    /// System headers precompiled for the files of a run, if any (see [`SharedHeaders`]).
    fn shared_headers(&self) -> Option<&SharedHeaders>;
}

/// The database. Clones share the storage (and the side fields): a query may run on a
/// clone while the original waits to set an input, which cancels the clone's queries.
#[salsa::db]
#[derive(Clone, Default)]
pub struct Database {
    storage: salsa::Storage<Self>,
    log: Arc<Mutex<Vec<String>>>,
    tu_cache: Option<Arc<TuCache>>,
    shared_headers: Option<Arc<SharedHeaders>>,
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {
    fn log_execution(&self, what: String) {
        if let Ok(mut l) = self.log.lock() {
            l.push(what);
        }
    }

    fn tu_cache(&self) -> Option<&TuCache> {
        self.tu_cache.as_deref()
    }

    fn shared_headers(&self) -> Option<&SharedHeaders> {
        self.shared_headers.as_deref()
    }
}

impl Database {
    /// A database whose `parse` keeps up to `capacity` translation units (the most recently
    /// parsed files') and reparses them on the next text, as an editor needs.
    pub fn with_tu_cache(capacity: usize) -> Database {
        Database::with_tu_cache_store(capacity, None)
    }

    /// [`Self::with_tu_cache`], keeping the PCHs of files' leading system headers in
    /// `header_store` between sessions ([`TuCache::with_header_store`]).
    pub fn with_tu_cache_store(
        capacity: usize,
        header_store: Option<std::path::PathBuf>,
    ) -> Database {
        Database {
            tu_cache: Some(Arc::new(
                TuCache::new(capacity).with_header_store(header_store),
            )),
            ..Database::default()
        }
    }

    /// A database whose `parse` uses the system headers `shared` precompiled (a run over
    /// many files).
    pub fn with_shared_headers(shared: Arc<SharedHeaders>) -> Database {
        Database {
            shared_headers: Some(shared),
            ..Database::default()
        }
    }

    /// Drops the kept translation unit of `path` (the file was closed).
    pub fn forget_tu(&self, path: &str) {
        if let Some(c) = &self.tu_cache {
            c.forget(path);
        }
    }

    /// Parses and reparses made through the translation-unit cache (zero without one).
    pub fn tu_stats(&self) -> TuStats {
        self.tu_cache
            .as_ref()
            .map(|c| c.stats())
            .unwrap_or_default()
    }

    /// The analyses run since the last call (`piece_findings NAME`, `piece_view NAME`,
    /// `piece_plan NAME` per component).
    pub fn take_log(&self) -> Vec<String> {
        self.log
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default()
    }
}

/// libclang's lowering of the file's current text.
#[salsa::tracked(returns(ref))]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parsed {
    let path = std::path::Path::new(file.path(db));
    // (Read for the dependency: a new revision of the project's other files parses again.)
    let _ = file.project(db);
    let lowered = match db.tu_cache() {
        Some(cache) => {
            crate::frontend::lower_file_cached(cache, path, file.text(db), file.flags(db))
        }
        None => crate::frontend::lower_file_shared(
            db.shared_headers(),
            path,
            Some(file.text(db)),
            file.flags(db),
        ),
    };
    match lowered {
        Ok(mut m) => {
            // What the project's other files do for the functions they define (read from
            // disk here, outside salsa's view: a change there shows at this file's next
            // parse).
            crate::project::attach(&mut m, db.shared_headers());
            crate::project::attach_member_lengths(&mut m, file.text(db), db.shared_headers());
            Parsed {
                module: Some(Arc::new(m)),
                error: None,
            }
        }
        Err(e) => Parsed {
            module: None,
            error: Some(e.to_string()),
        },
    }
}

/// Every component of the file as a piece, by the name of its first function.
#[salsa::tracked(returns(ref))]
pub fn pieces(db: &dyn Db, file: SourceFile) -> BTreeMap<String, Piece> {
    let Some(module) = &parse(db, file).module else {
        return BTreeMap::new();
    };
    let text = file.text(db);
    let mut out = BTreeMap::new();
    let shared = piece::file_scope(module, text);
    let comments = piece::comments(text);
    for funcs in piece::components(module) {
        let mut p = piece::extract(module, text, &funcs, &shared, &comments);
        if let Some(body) = Arc::get_mut(&mut p.body) {
            body.module.piece = true;
        }
        let name = module.function(funcs[0]).qualified_name.clone();
        // Overloads share a name: the first component keeps it, later ones are numbered.
        let mut key = name.clone();
        let mut k = 1;
        while out.contains_key(&key) {
            k += 1;
            key = format!("{name}#{k}");
        }
        out.insert(key, p);
    }
    out
}

/// One component. Equal to the last revision's when the edit was elsewhere: salsa then keeps
/// the findings below without running them.
#[salsa::tracked(returns(clone))]
pub fn component<'db>(db: &'db dyn Db, slot: PieceSlot<'db>) -> Option<Arc<PieceBody>> {
    pieces(db, *slot.file(db))
        .get(slot.name(db))
        .map(|p| p.body.clone())
}

/// The data-environment facts of one component (the base pipeline: execution spaces, AST-CFGs,
/// effect summaries, the interpretation), read by its findings and its view: computed once
/// per component and revision. Not compared (`no_eq`): the facts change only when the
/// component does, and their readers are then re-run anyway. Kept for the most recently used
/// components only (`lru`): they are large (every access's state), and the findings and view
/// that read them are kept on their own.
#[salsa::tracked(returns(clone), no_eq, lru = 8)]
pub fn piece_facts<'db>(db: &'db dyn Db, slot: PieceSlot<'db>) -> Option<Arc<env::Facts>> {
    let p = component(db, slot)?;
    db.log_execution(format!("piece_facts {}", slot.name(db)));
    Some(Arc::new(env::interpret(&p.module, &p.source)))
}

/// The findings of one component, in its synthetic coordinates.
#[salsa::tracked(returns(clone))]
pub fn piece_findings<'db>(db: &'db dyn Db, slot: PieceSlot<'db>) -> Arc<Vec<Finding>> {
    let (Some(p), Some(facts)) = (component(db, slot), piece_facts(db, slot)) else {
        return Arc::new(Vec::new());
    };
    db.log_execution(format!("piece_findings {}", slot.name(db)));
    Arc::new(check::check_facts(&p.module, &p.source, &facts))
}

/// The facts of a file checked whole (one whose module holds bodies from the project's
/// headers, see [`file_findings`]), read by its findings and its view; kept for the most
/// recently used files only, like [`piece_facts`].
#[salsa::tracked(returns(clone), no_eq, lru = 2)]
pub fn whole_file_facts(db: &dyn Db, file: SourceFile) -> Option<Arc<env::Facts>> {
    let module = parse(db, file).module.clone()?;
    db.log_execution("whole_file_facts".to_string());
    Some(Arc::new(env::interpret(&module, file.text(db))))
}

/// Every finding of the file, in its coordinates and source order (before suppressions and
/// configuration, like [`check::check`]).
#[salsa::tracked(returns(clone))]
pub fn file_findings(db: &dyn Db, file: SourceFile) -> Arc<Vec<Finding>> {
    let Some(module) = parse(db, file).module.clone() else {
        return Arc::new(Vec::new());
    };
    // Bodies from the project's headers have no place in the file's text, so they cannot
    // travel in pieces: such a file is checked whole (not incrementally).
    if views::checked_whole(&module) {
        let Some(facts) = whole_file_facts(db, file) else {
            return Arc::new(Vec::new());
        };
        db.log_execution("whole_file_findings".to_string());
        return Arc::new(check::check_facts(&module, file.text(db), &facts));
    }
    let mut out = Vec::new();
    for (name, p) in pieces(db, file) {
        let slot = PieceSlot::new(db, file, name.clone());
        for f in piece_findings(db, slot).iter() {
            if let Some(f) = to_real(f, &p.segments, &module) {
                out.push(f);
            }
        }
    }
    check::demote_when_not_compiling(&module, &mut out);
    out.sort_by_key(|f| (f.span.start, f.code, f.span.end));
    out.dedup_by(|a, b| a.code == b.code && a.span == b.span && a.message == b.message);
    Arc::new(out)
}

/// A finding of a piece moved to the real file (None if its primary range falls outside the
/// piece's texts, which a rule never produces).
fn to_real(f: &Finding, segments: &[Segment], module: &Module) -> Option<Finding> {
    let span = |s: Span| -> Option<Span> {
        Some(Span {
            start: Piece::to_real(segments, s.start)?,
            end: Piece::to_real(segments, s.end)?,
        })
    };
    let text = |t: &str| {
        crate::text::resolve_line_refs(t, |at| {
            Piece::to_real(segments, at).map(|r| module.line_col(r).0)
        })
    };
    let mut out = f.clone();
    out.span = span(f.span)?;
    out.message = text(&f.message);
    out.related = f
        .related
        .iter()
        .filter_map(|r| {
            Some(check::Related {
                span: span(r.span)?,
                message: text(&r.message),
                header: None,
            })
        })
        .collect();
    out.fixes = f
        .fixes
        .iter()
        .filter_map(|x| {
            let edits = x
                .edits
                .iter()
                .map(|e| {
                    let s = span(Span {
                        start: e.start,
                        end: e.end,
                    })?;
                    Some(crate::text::TextEdit {
                        start: s.start,
                        end: s.end,
                        text: e.text.clone(),
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            Some(check::Fix {
                title: text(&x.title),
                edits,
            })
        })
        .collect();
    Some(out)
}

#[cfg(test)]
mod tests;
