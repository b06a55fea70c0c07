//! The other translation units of the project: what a function with no body in this file
//! does, read from the file of the compile database that defines it (issue 15, "the whole
//! program").
//!
//! For a file whose functions call a project function without a body here, the files of the
//! same compile database in the file's directory (and below it), then those built in the same
//! working directory when that is not the file's own (an out-of-tree build's), whose text may
//! define a function of that name (`defined`) are parsed with their own flags, and the effect
//! summaries of their functions with external linkage are attached to the matching
//! declarations here (by qualified name and number of parameters; a name two files define is
//! left alone). A function that maps data or launches kernels (or calls one that does) is
//! marked so (`launches`): its mappings are not carried across files, so its calls stay
//! uncertain, and findings through them name it.
//!
//! A defining file's own calls into further files are resolved the same way before it is
//! summarised, when the names in the project's texts say those calls may reach OpenMP code
//! (`reaches_offload`): `solve` in one file calling `step` in another that launches kernels
//! is known to launch them. To a depth of [`MAX_DEPTH`] files; a cycle of files is cut where
//! it closes, and what was read with a cut is kept for the run only, not on disk.
//!
//! Summaries are cached on disk per defining file, keyed by the file's text, the texts of the
//! headers it includes with quotes (found beside it), its flags and omplens's version, and
//! kept with the keys of the files they were read from (checked again on every use):
//! `$OMPLENS_CACHE_DIR`, else `$XDG_CACHE_HOME/omplens`, else `~/.cache/omplens`. An
//! unreadable or stale entry is recomputed; a cache that cannot be written is skipped.

mod cache;
mod defined;
mod members;

pub use members::attach_member_lengths;

use crate::frontend::flags::{self, Resolver};
use crate::frontend::SharedHeaders;
use crate::ir::effect::ExternalSummary;
use crate::ir::Module;
use std::any::Any;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

/// A function another file exports: (qualified name, number of parameters).
type Key = (String, usize);

/// Files of one directory tree scanned for a definition, at most.
const MAX_CANDIDATES: usize = 256;
/// A candidate file larger than this is not read (generated sources).
const MAX_FILE_BYTES: u64 = 4 << 20;
/// Files summarised inside one another's summary, at most (`a.c` calls into `b.c`, which
/// calls into `c.c`, ...).
const MAX_DEPTH: usize = 6;

/// The compile database given on the command line (`-p DIR`) or by the editor's
/// configuration; without one, the database is searched upwards from each file.
static DATABASE_DIR: RwLock<Option<PathBuf>> = RwLock::new(None);

/// Sets (or clears) the directory of the compile database that names the project's files.
pub fn set_database_dir(dir: Option<&Path>) {
    if let Ok(mut d) = DATABASE_DIR.write() {
        *d = dir.map(Path::to_path_buf);
    }
}

/// What was read of other files in this process, per file, key (`cache::key`) and kind:
/// parsing a file once serves every file that calls into it (`check` over a tree).
type Memory = Mutex<HashMap<(PathBuf, u64, &'static str), Arc<dyn Any + Send + Sync>>>;

fn memory() -> &'static Memory {
    static M: OnceLock<Memory> = OnceLock::new();
    M.get_or_init(Mutex::default)
}

/// What `make` reads of `file` (kind "" the exports, "-members" the member evidence): from
/// this process's memory, the disk cache, or `make` (None when the file does not parse).
fn memory_of<T>(
    file: &Path,
    text: &str,
    args: &[String],
    cache_dir: Option<&Path>,
    kind: &'static str,
    make: impl FnOnce() -> Option<T>,
) -> Option<Arc<T>>
where
    T: serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
{
    remembered(
        file,
        text,
        args,
        cache_dir,
        kind,
        |_| true,
        || make().map(|v| (v, true)),
    )
}

/// [`memory_of`] for what stays right only while `valid` says so (a remembered or stored
/// value it refuses is made again), and whose `make` says whether the value may go to disk.
fn remembered<T>(
    file: &Path,
    text: &str,
    args: &[String],
    cache_dir: Option<&Path>,
    kind: &'static str,
    valid: impl Fn(&T) -> bool,
    make: impl FnOnce() -> Option<(T, bool)>,
) -> Option<Arc<T>>
where
    T: serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
{
    let key = cache::key(file, text, args);
    let slot = (file.to_path_buf(), key, kind);
    if let Some(e) = memory().lock().ok().and_then(|m| m.get(&slot).cloned()) {
        if let Ok(e) = e.downcast::<T>() {
            if valid(&e) {
                return Some(e);
            }
        }
    }
    let value = match cache::load(cache_dir, key, kind).filter(|e| valid(e)) {
        Some(e) => e,
        None => {
            let (e, to_disk) = make()?;
            if to_disk {
                cache::store(cache_dir, key, kind, &e);
            }
            e
        }
    };
    let value = Arc::new(value);
    if let Ok(mut m) = memory().lock() {
        m.insert(slot, value.clone());
    }
    Some(value)
}

/// What one file exports.
pub type Exports = Vec<(String, usize, ExternalSummary)>;

/// What one file exports, with the files (and their keys, `cache::key`) whose exports its
/// summaries were made with: valid while each of those is the same.
#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    exports: Exports,
    deps: Vec<(PathBuf, u64)>,
}

thread_local! {
    /// The files being summarised on this thread, outermost first (a file's summary reads
    /// the files it calls into, which may call back into it).
    static SUMMARISING: std::cell::RefCell<Vec<PathBuf>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Set when a file's exports were read without a file that was being summarised (a
    /// cycle cut): the summaries made then are not kept.
    static CUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Attaches to `module`'s functions without a body here the summaries of their definitions
/// in other files of the project's compile database, when there is one. Returns the files
/// read (parsed or from the cache).
/// Files parsed here use the system headers `shared` precompiled for a run, if given.
pub fn attach(module: &mut Module, shared: Option<&SharedHeaders>) -> Vec<PathBuf> {
    attach_with(module, cache::default_dir().as_deref(), shared)
}

/// [`attach`] with the disk cache in `cache_dir` (none: no disk cache).
pub fn attach_with_cache(module: &mut Module, cache_dir: Option<&Path>) -> Vec<PathBuf> {
    attach_with(module, cache_dir, None)
}

fn attach_with(
    module: &mut Module,
    cache_dir: Option<&Path>,
    shared: Option<&SharedHeaders>,
) -> Vec<PathBuf> {
    attach_keyed(module, cache_dir, shared)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

/// The functions of `module` that another file may define.
fn wanted(module: &Module) -> HashSet<Key> {
    module
        .functions
        .iter()
        .filter(|f| !f.has_body && !f.in_system_header && f.external.is_none())
        .map(|f| (f.qualified_name.clone(), f.params.len()))
        .collect()
}

/// [`attach_with`], returning the files read with their keys (`cache::key`).
fn attach_keyed(
    module: &mut Module,
    cache_dir: Option<&Path>,
    shared: Option<&SharedHeaders>,
) -> Vec<(PathBuf, u64)> {
    let wanted = wanted(module);
    if wanted.is_empty() {
        return Vec::new();
    }
    let Some((resolver, candidates)) = other_files(module) else {
        return Vec::new();
    };
    let names = short_names(&wanted);
    let mut found: BTreeMap<Key, Option<ExternalSummary>> = BTreeMap::new();
    let mut read = Vec::new();
    for file in candidates {
        crate::budget::tick("reading the project's other files");
        let Some(ids) = defined_names_of(&file) else {
            continue;
        };
        if !names.iter().any(|n| ids.contains(*n)) {
            continue;
        }
        let Some(text) = read_small(&file) else {
            continue;
        };
        let Ok(f) = resolver.flags_for(&file, &[]) else {
            continue;
        };
        if f.skip.is_some() {
            continue;
        }
        let Some(stored) = exports_of(&resolver, &file, &text, &f.args, cache_dir, shared) else {
            continue;
        };
        read.push((file.clone(), cache::key(&file, &text, &f.args)));
        for (name, arity, summary) in stored.exports.iter() {
            let key = (name.clone(), *arity);
            if !wanted.contains(&key) {
                continue;
            }
            // Defined in two files (a name reused by two programs of one directory): which
            // one this file links with is not known.
            let slot = found.entry(key).or_insert_with(|| Some(summary.clone()));
            if slot.as_ref().is_some_and(|s| s.file != summary.file) {
                *slot = None;
            }
        }
    }
    for f in module.functions.iter_mut() {
        if f.has_body || f.in_system_header || f.external.is_some() {
            continue;
        }
        let key = (f.qualified_name.clone(), f.params.len());
        if let Some(Some(s)) = found.get(&key) {
            f.external = Some(Arc::new(s.clone()));
        }
    }
    read
}

/// The flags resolver and the other files of the compile database that names `module`'s
/// file, in its directory and below (at most [`MAX_CANDIDATES`]); None without a database.
fn other_files(module: &Module) -> Option<(Arc<Resolver>, Vec<PathBuf>)> {
    // (Lexical, as the database's own paths are: no symlink resolved.)
    let path = Path::new(&module.path);
    let path = flags::lexical(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()));
    let explicit = DATABASE_DIR.read().ok().and_then(|d| d.clone());
    let db_path = flags::find_database(&path, explicit.as_deref())?;
    let resolver = resolver_for(explicit.as_deref(), &db_path)?;
    let db = resolver.database(&db_path).ok()?;
    let dir = path.parent()?;
    let mut files: Vec<PathBuf> = db
        .files()
        .into_iter()
        .filter(|f| f.starts_with(dir) && *f != path)
        .collect();
    // The files built in the same working directory, after those, when that directory is
    // not the file's own: an out-of-tree build (CMake's) runs every command in the build
    // directory, with the sources in sibling directories. (A Makefile per directory that
    // also compiles shared sources from elsewhere, as HeCBench's do, is left at the file's
    // directory: its shared sources are large, and parsing them all is most of the cost.)
    if let Some(run_in) = db.directory_of(&path).filter(|d| *d != dir) {
        for f in db.files_run_in(run_in) {
            if f != path && !f.starts_with(dir) {
                files.push(f);
            }
        }
    }
    files.truncate(MAX_CANDIDATES);
    Some((resolver, files))
}

/// What `file` exports: from this process's memory, the disk cache, or a parse; None while
/// `file` is itself being summarised on this thread (a cycle of calls between files), or
/// deeper than [`MAX_DEPTH`].
fn exports_of(
    resolver: &Resolver,
    file: &Path,
    text: &str,
    args: &[String],
    cache_dir: Option<&Path>,
    shared: Option<&SharedHeaders>,
) -> Option<Arc<Stored>> {
    let open = SUMMARISING.with(|s| {
        let s = s.borrow();
        s.len() >= MAX_DEPTH || s.iter().any(|f| f == file)
    });
    if open {
        CUT.with(|c| c.set(true));
        return None;
    }
    let valid = |s: &Stored| {
        s.deps
            .iter()
            .all(|(dep, k)| key_now(resolver, dep) == Some(*k))
    };
    remembered(file, text, args, cache_dir, "", valid, || {
        SUMMARISING.with(|s| s.borrow_mut().push(file.to_path_buf()));
        let outer_cut = CUT.with(|c| c.replace(false));
        let made = summarize_file(file, text, args, cache_dir, shared);
        let cut = CUT.with(|c| c.replace(outer_cut || c.get()));
        SUMMARISING.with(|s| s.borrow_mut().pop());
        // A summary read with a cycle cut is kept for this process only: the next run,
        // which may enter the cycle elsewhere, makes its own.
        Some((made?, !cut))
    })
}

/// Whether `module` (lowered from `text`) may reach OpenMP code through its calls into
/// other files of the project, by the names in their texts: it names a function that a
/// file which may hold OpenMP defines, or that a file naming such a function defines, and
/// so on. Only then is following its calls worth their parses: otherwise what the other
/// files do is host code, which their prototypes already say well enough.
fn reaches_offload(resolver: &Resolver, candidates: &[PathBuf], text: &str) -> bool {
    /// What [`reaches_offload`] reads of one file.
    struct Names {
        defined: Arc<HashSet<String>>,
        used: Arc<HashSet<String>>,
    }
    let named: HashSet<&str> = crate::text::scan::identifiers(text).into_iter().collect();
    let mut reaching = Vec::new();
    let files: Vec<Names> = candidates
        .iter()
        .filter_map(|f| {
            let names = Names {
                defined: defined_names_of(f)?,
                used: identifiers_of(f)?,
            };
            reaching.push(holds_openmp(resolver, f));
            Some(names)
        })
        .collect();
    loop {
        crate::budget::tick("following calls between the project's files");
        let names: HashSet<&str> = files
            .iter()
            .zip(&reaching)
            .filter(|(_, r)| **r)
            .flat_map(|(f, _)| f.defined.iter().map(String::as_str))
            .collect();
        if named.iter().any(|n| names.contains(n)) {
            return true;
        }
        let mut grew = false;
        for (i, f) in files.iter().enumerate() {
            if !reaching[i] && f.used.iter().any(|n| names.contains(n.as_str())) {
                reaching[i] = true;
                grew = true;
            }
        }
        if !grew {
            return false;
        }
    }
}

/// The files of the project that may define one of `wanted` (a function `module` calls), with
/// their keys.
fn defining_files(
    resolver: &Resolver,
    candidates: &[PathBuf],
    wanted: &HashSet<Key>,
) -> Vec<(PathBuf, u64)> {
    let names = short_names(wanted);
    candidates
        .iter()
        .filter(|f| defined_names_of(f).is_some_and(|ids| names.iter().any(|n| ids.contains(*n))))
        .filter_map(|f| Some((f.clone(), key_now(resolver, f)?)))
        .collect()
}

/// The unqualified names of `wanted` (what a file's text shows of a definition).
fn short_names(wanted: &HashSet<Key>) -> HashSet<&str> {
    wanted
        .iter()
        .map(|(q, _)| q.rsplit("::").next().unwrap_or(q))
        .collect()
}

/// The identifiers of `file`'s text.
pub(super) fn identifiers_of(file: &Path) -> Option<Arc<HashSet<String>>> {
    static M: OnceLock<NameMemo> = OnceLock::new();
    names_memoised(&M, file, |text| {
        crate::text::scan::identifiers(text)
            .into_iter()
            .map(str::to_string)
            .collect()
    })
}

/// Whether `file` (or a project header it includes) may hold OpenMP
/// (`frontend::may_hold_openmp`), once per process while it stays the same.
fn holds_openmp(resolver: &Resolver, file: &Path) -> bool {
    type Memo = Mutex<HashMap<PathBuf, ((u64, std::time::SystemTime), bool)>>;
    static M: OnceLock<Memo> = OnceLock::new();
    let Some(stamp) = stamp(file) else {
        return true;
    };
    let memo = M.get_or_init(Mutex::default);
    if let Some((s, v)) = memo.lock().ok().and_then(|m| m.get(file).copied()) {
        if s == stamp {
            return v;
        }
    }
    let v = match (read_small(file), resolver.flags_for(file, &[])) {
        (Some(text), Ok(f)) => crate::frontend::may_hold_openmp(file, &text, &f.args),
        _ => true,
    };
    if let Ok(mut m) = memo.lock() {
        m.insert(file.to_path_buf(), (stamp, v));
    }
    v
}

/// The key (`cache::key`) of `file` as it is now, with its flags from `resolver`.
fn key_now(resolver: &Resolver, file: &Path) -> Option<u64> {
    let text = read_small(file)?;
    let f = resolver.flags_for(file, &[]).ok()?;
    Some(cache::key(file, &text, &f.args))
}

/// Parses `file` and summarises its functions (`semantics::effects::exported`), with what
/// the further files it calls into export; for those that map data or launch kernels, what
/// they leave of data mapped at their entry (`check::env::present_exits`).
fn summarize_file(
    file: &Path,
    text: &str,
    args: &[String],
    cache_dir: Option<&Path>,
    shared: Option<&SharedHeaders>,
) -> Option<Stored> {
    let mut module = crate::frontend::lower_file_for_project(shared, file, text, args).ok()?;
    let mut deps = Vec::new();
    let wanted = wanted(&module);
    if let Some((resolver, candidates)) = other_files(&module).filter(|_| !wanted.is_empty()) {
        if reaches_offload(&resolver, &candidates, text) {
            let mut m = (*module).clone();
            deps = attach_keyed(&mut m, cache_dir, shared);
            module = Arc::new(m);
        } else {
            // Not followed: the files that define what it calls are still what the choice
            // was made on (one of them may gain OpenMP). (A change two files away is seen
            // when a file between changes, or in a new cache.)
            deps = defining_files(&resolver, &candidates, &wanted);
        }
    }
    let execs = crate::ir::device::classify(&module);
    let cfgs = crate::ir::cfg::build_all(&module, &execs);
    let sums = crate::semantics::effects::summarize_with(&module, &cfgs);
    let exported = crate::semantics::effects::exported(&module, &sums, &cfgs);
    let launchers: Vec<_> = exported
        .iter()
        .filter(|(_, (_, _, s))| s.launches)
        .map(|(id, _)| *id)
        .collect();
    let mut exits = if launchers.is_empty() {
        BTreeMap::new()
    } else {
        crate::check::env::present_exits(&module, text, &launchers)
    };
    Some(Stored {
        exports: exported
            .into_iter()
            .map(|(id, (name, arity, mut s))| {
                if let Some(per_param) = exits.remove(&id) {
                    s.present_exits = per_param;
                }
                (name, arity, s)
            })
            .collect(),
        deps,
    })
}

fn read_small(file: &Path) -> Option<String> {
    let meta = std::fs::metadata(file).ok()?;
    if meta.len() > MAX_FILE_BYTES {
        return None;
    }
    std::fs::read(file)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// A file's size and modification time: what the memos below are valid for.
fn stamp(file: &Path) -> Option<(u64, std::time::SystemTime)> {
    let meta = std::fs::metadata(file).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// Names read from a file's text, per file, with the stamp they were read at.
type NameMemo = Mutex<HashMap<PathBuf, ((u64, std::time::SystemTime), Arc<HashSet<String>>)>>;

/// `read` of `file`'s text, once per process while the file stays the same (a run over a
/// tree asks for the same files' names again and again).
fn names_memoised(
    memo: &'static OnceLock<NameMemo>,
    file: &Path,
    read: impl FnOnce(&str) -> HashSet<String>,
) -> Option<Arc<HashSet<String>>> {
    let stamp = stamp(file)?;
    let memo = memo.get_or_init(Mutex::default);
    if let Some((s, ids)) = memo.lock().ok()?.get(file) {
        if *s == stamp {
            return Some(ids.clone());
        }
    }
    let ids = Arc::new(read(&read_small(file)?));
    memo.lock()
        .ok()?
        .insert(file.to_path_buf(), (stamp, ids.clone()));
    Some(ids)
}

/// The names `file`'s text may define (`defined`).
fn defined_names_of(file: &Path) -> Option<Arc<HashSet<String>>> {
    static M: OnceLock<NameMemo> = OnceLock::new();
    names_memoised(&M, file, defined::defined_names)
}

/// A resolver of flags (it keeps the loaded database) for `explicit` and the database at
/// `db_path`, kept while that file stays the same.
fn resolver_for(explicit: Option<&Path>, db_path: &Path) -> Option<Arc<Resolver>> {
    type Key = (Option<PathBuf>, PathBuf, (u64, std::time::SystemTime));
    type Memo = Mutex<Option<(Key, Arc<Resolver>)>>;
    static M: OnceLock<Memo> = OnceLock::new();
    let key: Key = (
        explicit.map(Path::to_path_buf),
        db_path.to_path_buf(),
        stamp(db_path)?,
    );
    let mut slot = M.get_or_init(Mutex::default).lock().ok()?;
    match &*slot {
        Some((k, r)) if *k == key => Some(r.clone()),
        _ => {
            let r = Arc::new(Resolver::new(explicit));
            *slot = Some((key, r.clone()));
            Some(r)
        }
    }
}

#[cfg(test)]
mod tests;
