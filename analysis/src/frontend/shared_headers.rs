//! System headers precompiled once per run and shared by the files that include them.
//!
//! `omplens check` over a tree parses hundreds of files that begin with the same
//! `#include <...>` lines, and clang spends most of each parse in those headers (a C++ file
//! with `<chrono>` and `<random>`: 0.15 s of a 0.5 s parse is the file itself). Before the
//! run, [`SharedHeaders::plan`] reads the leading block of angle includes of every file (up
//! to its first other line) and keeps each set of headers that two or more files of the same
//! language and flags begin with. A file then parses after the largest kept set that its own
//! block contains (`-include-pch`); each set is precompiled once, on first use.
//!
//! Why a parse after the shared headers is the parse of the file (a test compares the
//! lowered modules over the corpora):
//! - The headers are system headers (checked when the PCH is made: any other file included
//!   refuses it), self-contained and include-guarded, so the file's own `#include` lines of
//!   them become no-ops and their order among themselves does not matter.
//! - They lead the file: no macro or declaration of the file comes before them.
//! - The flags are the file's own, include directories aside: the PCH is made without them,
//!   and a file with an include directory that holds one of the set's headers by name does
//!   not use it.
//! - `omp.h` is never in a set: read without OpenMP semantics (as omplens reads) it has
//!   errors that libclang will not save; the file parses it itself, after the others.
//! - A parse after a PCH that fails or reports a problem with the PCH is done again plainly.
//!
//! With a store (omplens's disk cache, `pch-v1`), a set's PCH is kept between runs under a
//! hash of libclang's version, the language, the flags and the headers, beside the list of
//! the files it holds with their sizes and modification times: a later run uses it when every
//! one of them is unchanged, and makes it again otherwise (clang checks the same on load; a
//! PCH it refuses is removed from the store). The store keeps the most recently used sets,
//! [`MAX_STORED_BYTES`] at most.

use super::libclang;
use crate::ir::Language;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The language and the flags that decide how a file reads its system headers.
type FlagKey = (bool, Vec<String>);

/// The planned header sets of a run and their precompiled forms (in a temporary directory
/// removed with the value).
pub struct SharedHeaders {
    dir: tempfile::TempDir,
    /// Where PCHs are kept between runs, if anywhere.
    store: Option<PathBuf>,
    /// Per flag key, the planned sets, largest first.
    planned: HashMap<FlagKey, Vec<Arc<Planned>>>,
    /// Names in include directories, per directory (see [`Made::names`]).
    listings: Mutex<HashMap<String, Arc<HashSet<String>>>>,
    stats: Counters,
    /// Files lowered for another file's sake, kept for their own check.
    pub(super) kept: super::kept::Kept,
}

struct Planned {
    names: BTreeSet<String>,
    /// The hash of the set and its flags (the name of its PCH).
    name: String,
    /// Made (with what it includes) or refused (`None`), once.
    made: OnceLock<Option<Made>>,
}

struct Made {
    pch: PathBuf,
    /// The file and directory names of every header the PCH holds: a file whose include
    /// directory holds one of them might read another header in its place, so it does not
    /// use the PCH.
    names: HashSet<String>,
}

#[derive(Default)]
struct Counters {
    built: AtomicUsize,
    refused: AtomicUsize,
    reused: AtomicUsize,
    used: AtomicUsize,
    fallbacks: AtomicUsize,
    build_micros: AtomicU64,
}

/// What the shared headers did in a run (for the summary and for tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SharedStats {
    /// Header sets planned (each led two or more files).
    pub planned: usize,
    /// Sets precompiled.
    pub built: usize,
    /// Sets whose PCH was refused (an error, or a header that is not a system header).
    pub refused: usize,
    /// Sets whose PCH an earlier run left in the store, unchanged.
    pub reused: usize,
    /// Parses made after a shared PCH.
    pub used: usize,
    /// Parses after a PCH that were done again without it.
    pub fallbacks: usize,
    /// Time spent making the PCHs, in milliseconds (for profiles).
    pub build_millis: u64,
    /// Files whose check took the module lowered for another file's sake (one parse less).
    pub kept_taken: usize,
}

impl SharedHeaders {
    /// Plans the header sets of `files` (path and libclang arguments; a file that cannot be
    /// read is left out): largest first, a set that the leading headers of two files or more
    /// not served by a larger one contain. `store`: where PCHs are kept between runs (made if
    /// missing; one that cannot be made is not used). Fails only when no temporary directory
    /// can be made.
    pub fn plan<'a>(
        files: impl IntoIterator<Item = (&'a Path, &'a [String])>,
        store: Option<&Path>,
    ) -> std::io::Result<SharedHeaders> {
        let mut by_key: HashMap<FlagKey, Vec<BTreeSet<String>>> = HashMap::new();
        let mut paths = Vec::new();
        for (path, args) in files {
            paths.push(path);
            let Ok(bytes) = std::fs::read(path) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            if let Some((key, names)) = leading_set(path, &text, args) {
                by_key.entry(key).or_default().push(names);
            }
        }
        let dir = tempfile::Builder::new().prefix("omplens-pch").tempdir()?;
        let store = store
            .filter(|s| std::fs::create_dir_all(s).is_ok())
            .map(Path::to_path_buf);
        if let Some(s) = &store {
            prune(s, MAX_STORED_BYTES);
        }
        let mut planned: HashMap<FlagKey, Vec<Arc<Planned>>> = HashMap::new();
        let mut keys: Vec<FlagKey> = by_key.keys().cloned().collect();
        keys.sort();
        for key in keys {
            let files = &by_key[&key];
            let mut candidates: Vec<&BTreeSet<String>> = files.iter().collect();
            candidates.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
            candidates.dedup();
            let mut served = vec![false; files.len()];
            let mut sets = Vec::new();
            for c in candidates {
                let fits: Vec<usize> = (0..files.len())
                    .filter(|&f| !served[f] && c.is_subset(&files[f]))
                    .collect();
                if fits.len() < MIN_SHARERS {
                    continue;
                }
                for f in fits {
                    served[f] = true;
                }
                sets.push(Arc::new(Planned {
                    names: c.clone(),
                    name: stored_name(&key, c),
                    made: OnceLock::new(),
                }));
            }
            let sets = without_cheap_supersets(sets, key.0);
            if !sets.is_empty() {
                planned.insert(key, sets);
            }
        }
        Ok(SharedHeaders {
            dir,
            store,
            planned,
            listings: Mutex::default(),
            stats: Counters::default(),
            kept: super::kept::Kept::for_run(paths),
        })
    }

    /// The PCH `path` (with `text` and `args`) should parse after, if a planned set fits:
    /// the largest whose headers all lead the file, made and not shadowed by the file's
    /// include directories. Made here on first use (other threads asking for it wait).
    pub fn pch_for(&self, path: &Path, text: &str, args: &[String]) -> Option<&Path> {
        let (key, names) = leading_set(path, text, args)?;
        let dirs = include_dirs(args);
        let sets = self.planned.get(&key)?;
        sets.iter()
            .filter(|p| p.names.is_subset(&names))
            .find(
                |p| match p.made.get_or_init(|| self.make(p, key.0, &key.1)) {
                    Some(made) => !dirs.iter().any(|d| self.shadows(d, made)),
                    None => false,
                },
            )
            .and_then(|p| {
                self.stats.used.fetch_add(1, Ordering::Relaxed);
                p.made.get()?.as_ref().map(|m| m.pch.as_path())
            })
    }

    /// Whether the include directory `dir` holds a file or directory named as one the PCH
    /// includes (listings are read once per run).
    fn shadows(&self, dir: &str, made: &Made) -> bool {
        let listing = {
            let Ok(mut l) = self.listings.lock() else {
                return true;
            };
            l.entry(dir.to_string())
                .or_insert_with(|| Arc::new(names_in(dir)))
                .clone()
        };
        listing.iter().any(|n| made.names.contains(n))
    }

    /// Counts a parse after `pch` that had to be done again without it; a stored PCH clang
    /// refused is removed, for the next run to make again.
    pub(super) fn fell_back(&self, pch: &Path) {
        self.stats.fallbacks.fetch_add(1, Ordering::Relaxed);
        if self.store.as_deref().is_some_and(|s| pch.starts_with(s)) {
            drop_stored(pch);
        }
    }

    pub fn stats(&self) -> SharedStats {
        SharedStats {
            planned: self.planned.values().map(Vec::len).sum(),
            built: self.stats.built.load(Ordering::Relaxed),
            refused: self.stats.refused.load(Ordering::Relaxed),
            reused: self.stats.reused.load(Ordering::Relaxed),
            used: self.stats.used.load(Ordering::Relaxed),
            fallbacks: self.stats.fallbacks.load(Ordering::Relaxed),
            build_millis: self.stats.build_micros.load(Ordering::Relaxed) / 1000,
            kept_taken: self.kept.taken(),
        }
    }

    fn make(&self, set: &Planned, cxx: bool, flags: &[String]) -> Option<Made> {
        let name = &set.name;
        if let Some(made) = self.store.as_deref().and_then(|s| stored(s, name)) {
            self.stats.reused.fetch_add(1, Ordering::Relaxed);
            return Some(made);
        }
        let started = std::time::Instant::now();
        let made = build(
            self.dir.path(),
            self.store.as_deref(),
            name,
            &set.names,
            cxx,
            flags,
        );
        self.stats
            .build_micros
            .fetch_add(started.elapsed().as_micros() as u64, Ordering::Relaxed);
        let counter = if made.is_some() {
            &self.stats.built
        } else {
            &self.stats.refused
        };
        counter.fetch_add(1, Ordering::Relaxed);
        made
    }
}

/// Precompiles the system headers `names` (of a C++ file when `cxx`, read with `flags`) in
/// `dir`, then moves the PCH into `store` as `name` when there is one that takes it; None when
/// clang refuses them (an error, or a header that is not a system header).
fn build(
    dir: &Path,
    store: Option<&Path>,
    name: &str,
    names: &BTreeSet<String>,
    cxx: bool,
    flags: &[String],
) -> Option<Made> {
    let header = dir.join(format!("{name}.h"));
    let text: String = names.iter().map(|n| format!("#include <{n}>\n")).collect();
    let mut args = flags.to_vec();
    args.push("-x".into());
    args.push(if cxx { "c++-header" } else { "c-header" }.into());
    // Made under a name of this run's own, then moved into the store whole.
    let building = dir.join(format!("{name}.pch"));
    libclang::save_header_pch(
        &header.display().to_string(),
        &text,
        &args,
        &building.display().to_string(),
    )
    .ok()
    .map(|files| Made {
        pch: store
            .and_then(|s| keep(s, name, &building, &files))
            .unwrap_or(building),
        names: names_of(&files),
    })
}

/// The store's name of the PCH of the system headers `names` read with the flags `key`
/// (the same for a run's planned set and an editor's file).
fn stored_name(key: &FlagKey, names: &BTreeSet<String>) -> String {
    let version = super::libclang_version().unwrap_or_default();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (STORE_VERSION, &version, key, names).hash(&mut h);
    format!("{:016x}", h.finish())
}

/// Whether one of the include directories `dirs` holds a file or directory named as one the
/// PCH `made` includes (a file with such a directory might read another header in its
/// place).
fn shadowed(dirs: &[&str], made: &Made) -> bool {
    dirs.iter()
        .any(|d| names_in(d).iter().any(|n| made.names.contains(n)))
}

/// The names of the files and directories in `dir` (none when it cannot be read).
fn names_in(dir: &str) -> HashSet<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// For an editor's first parse of a file: the PCH in `store` of all the system headers that
/// lead it (what a run plans for a set of one), when an earlier session or run made it,
/// nothing it holds has changed since, and the file's include directories shadow none of its
/// headers. The file parses after it as after a run's shared set.
pub fn stored_leading_pch(
    store: &Path,
    path: &Path,
    text: &str,
    args: &[String],
) -> Option<PathBuf> {
    let (key, names) = leading_set(path, text, args)?;
    let made = stored(store, &stored_name(&key, &names))?;
    (!shadowed(&include_dirs(args), &made)).then_some(made.pch)
}

/// Removes the stored PCH `pch` (one clang refused), for a later run to make again.
pub(super) fn drop_stored(pch: &Path) {
    let _ = std::fs::remove_file(pch.with_extension("files"));
    let _ = std::fs::remove_file(pch);
}

/// Precompiles into `store` the system headers that lead the file, unless the store holds
/// them already (the language server does it in the background after a file's first parse,
/// for the next session's); whether the store has them now.
pub fn store_leading_pch(store: &Path, path: &Path, text: &str, args: &[String]) -> bool {
    let Some((key, names)) = leading_set(path, text, args) else {
        return false;
    };
    let name = stored_name(&key, &names);
    if stored(store, &name).is_some() {
        return true;
    }
    if std::fs::create_dir_all(store).is_err() {
        return false;
    }
    prune(store, MAX_STORED_BYTES);
    let Ok(dir) = tempfile::Builder::new().prefix("omplens-pch").tempdir() else {
        return false;
    };
    build(dir.path(), Some(store), &name, &names, key.0, &key.1)
        .is_some_and(|m| m.pch.starts_with(store))
}

/// Bumped when what the store holds changes meaning.
const STORE_VERSION: u32 = 1;
/// Bytes of PCHs the store keeps, at most: the least recently used go first (a set of C++
/// headers is 2-7 MB; HeCBench's 89 sets take 330 MB).
pub const MAX_STORED_BYTES: u64 = 512 << 20;

/// The file and directory names of the headers `files` (see [`Made::names`]).
fn names_of(files: &[String]) -> HashSet<String> {
    let mut names = HashSet::new();
    for f in files {
        let p = Path::new(f);
        // `bits/types.h` is shadowed by a `bits` directory; the roots (`include`) are never
        // part of a header's name.
        let parent = p
            .parent()
            .and_then(Path::file_name)
            .filter(|d| *d != "include");
        for part in [p.file_name(), parent].into_iter().flatten() {
            names.insert(part.to_string_lossy().into_owned());
        }
    }
    names
}

/// A file's size and modification time, as the store records them.
fn stamp(path: &Path) -> Option<(u64, u128)> {
    let m = std::fs::metadata(path).ok()?;
    let t = m
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some((m.len(), t.as_nanos()))
}

/// The PCH `name` of the store, when it and every file it holds are as they were made.
fn stored(store: &Path, name: &str) -> Option<Made> {
    let pch = store.join(format!("{name}.pch"));
    let list = std::fs::read_to_string(store.join(format!("{name}.files"))).ok()?;
    let mut files = Vec::new();
    for line in list.lines() {
        let mut parts = line.splitn(3, ' ');
        let len: u64 = parts.next()?.parse().ok()?;
        let time: u128 = parts.next()?.parse().ok()?;
        let path = parts.next()?;
        if stamp(Path::new(path)) != Some((len, time)) {
            return None;
        }
        files.push(path.to_string());
    }
    if files.is_empty() {
        return None;
    }
    // Used now: the last to go when the store is pruned.
    std::fs::File::options()
        .append(true)
        .open(&pch)
        .ok()?
        .set_modified(std::time::SystemTime::now())
        .ok()?;
    Some(Made {
        pch,
        names: names_of(&files),
    })
}

/// Moves the PCH made at `built` into the store as `name`, with the list of the `files` it
/// holds; its path there, or `None` (it stays where it was made) when the store cannot take
/// it.
fn keep(store: &Path, name: &str, built: &Path, files: &[String]) -> Option<PathBuf> {
    let list: String = files
        .iter()
        .map(|f| {
            let (len, time) = stamp(Path::new(f))?;
            Some(format!("{len} {time} {f}\n"))
        })
        .collect::<Option<_>>()?;
    // Temporary names in the store itself, so that the renames do not cross file systems.
    let unique = format!("{}-{name}", std::process::id());
    let list_tmp = store.join(format!(".{unique}.files.tmp"));
    let pch_tmp = store.join(format!(".{unique}.pch.tmp"));
    let pch = store.join(format!("{name}.pch"));
    let done = std::fs::write(&list_tmp, list).is_ok()
        && std::fs::copy(built, &pch_tmp).is_ok()
        && std::fs::rename(&list_tmp, store.join(format!("{name}.files"))).is_ok()
        && std::fs::rename(&pch_tmp, &pch).is_ok();
    let _ = std::fs::remove_file(&list_tmp);
    let _ = std::fs::remove_file(&pch_tmp);
    done.then_some(pch)
}

/// Leaves the store at most `budget` bytes of PCHs, the most recently used, and no temporary
/// file an earlier run left more than an hour ago.
fn prune(store: &Path, budget: u64) {
    let Ok(entries) = std::fs::read_dir(store) else {
        return;
    };
    let mut pchs = Vec::new();
    for e in entries.flatten() {
        let path = e.path();
        let modified = e.metadata().and_then(|m| m.modified()).ok();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".tmp") {
            let old = modified
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 3600);
            if old {
                let _ = std::fs::remove_file(&path);
            }
        } else if name.ends_with(".pch") {
            let len = e.metadata().map_or(0, |m| m.len());
            pchs.push((modified, len, path));
        }
    }
    // Newest first; past the budget, the rest go.
    pchs.sort_by_key(|p| std::cmp::Reverse(p.0));
    let mut total = 0;
    for (_, len, p) in pchs {
        total += len;
        if total > budget {
            let _ = std::fs::remove_file(p.with_extension("files"));
            let _ = std::fs::remove_file(p);
        }
    }
}

/// The flag key and the leading system headers of a file, when it has any and its flags let
/// it share them.
fn leading_set(path: &Path, text: &str, args: &[String]) -> Option<(FlagKey, BTreeSet<String>)> {
    // A forced include or an existing PCH comes before the file's first line.
    if args
        .iter()
        .any(|a| a.starts_with("-include") || a.starts_with("-imacros"))
    {
        return None;
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut lead = Lead {
        quote_dirs: quote_dirs(args),
        angle_dirs: include_dirs(args),
        read: 0,
        names: BTreeSet::new(),
    };
    lead.walk(dir, text, 0);
    lead.names.remove("omp.h");
    if lead.names.is_empty() {
        return None;
    }
    let cxx = super::language_of(path, args) == Language::Cxx;
    Some(((cxx, header_flags(args)), lead.names))
}

/// The system headers a file includes before anything else: its leading `#include <...>`
/// lines and, through its leading `#include "..."` lines, those of the project headers they
/// name (each past its include guard), up to the first line anywhere that is not an include.
/// Whatever the order among them, they read the same: only include guards (or
/// `#pragma once`) come before any of them.
struct Lead<'a> {
    /// Where `#include "..."` looks after the including file's directory (`-iquote`, `-I`).
    quote_dirs: Vec<&'a str>,
    /// Where `#include <...>` looks before the system (`-I`): a header found there is the
    /// project's.
    angle_dirs: Vec<&'a str>,
    /// Project headers read (bounded).
    read: usize,
    names: BTreeSet<String>,
}

/// Files a header set must lead to be precompiled: making a PCH costs about one and a half
/// parses of its headers, so two files gain little (over HeCBench's 620 files, 3 was faster
/// than 2 and 4).
const MIN_SHARERS: usize = 3;

/// `sets` (one flag key's, largest first) without those that only add cheap headers
/// ([`is_cheap`]) to a smaller planned set: their files parse after the smaller set and read
/// those few headers themselves, which costs less than making one more PCH (on HeCBench a
/// third of the sets, about a sixth of the PCHs' time).
fn without_cheap_supersets(sets: Vec<Arc<Planned>>, cxx: bool) -> Vec<Arc<Planned>> {
    let keep: Vec<bool> = sets
        .iter()
        .map(|p| {
            !sets.iter().any(|q| {
                q.names.len() < p.names.len()
                    && q.names.is_subset(&p.names)
                    && p.names.difference(&q.names).all(|h| is_cheap(h, cxx))
            })
        })
        .collect();
    sets.into_iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(p))
        .collect()
}

/// Whether the system header `name` parses in about a millisecond: a C header, but in C++
/// not those that libstdc++ makes into its C++ headers' templates (`<math.h>` is `<cmath>`:
/// 80 ms; `<stdlib.h>` 6 ms).
fn is_cheap(name: &str, cxx: bool) -> bool {
    name.ends_with(".h")
        && !(cxx && matches!(name, "math.h" | "stdlib.h" | "complex.h" | "tgmath.h"))
}

/// Project headers read per file, at most (they are read again at the file's parse).
const MAX_HEADERS_READ: usize = 64;
const MAX_INCLUDE_DEPTH: usize = 16;

impl Lead<'_> {
    /// Walks the leading lines of `text` (a file in `dir`); true when the whole text was
    /// includes (under a guard), so that what follows the parent's `#include` still leads.
    fn walk(&mut self, dir: &Path, text: &str, depth: usize) -> bool {
        let b = text.as_bytes();
        let mut i = 0;
        let mut guard: Option<&str> = None;
        let mut first = true;
        loop {
            i = skip_blank_and_comments(b, i);
            if i >= b.len() {
                return true;
            }
            if b[i] != b'#' {
                return false;
            }
            let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
            let line = text[i + 1..end].trim();
            i = end;
            if line.ends_with('\\') {
                return false;
            }
            let was_first = std::mem::replace(&mut first, false);
            if let Some(name) = directive_arg(line, "ifndef").filter(|_| was_first) {
                // A guard: `#ifndef X` then `#define X`.
                i = skip_blank_and_comments(b, i);
                let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
                let next = text.get(i + 1..end).unwrap_or("").trim();
                if b.get(i) != Some(&b'#') || directive_arg(next, "define") != Some(name) {
                    return false;
                }
                guard = Some(name);
                i = end;
                continue;
            }
            if line.strip_prefix("pragma").map(str::trim) == Some("once") {
                continue;
            }
            if line == "endif" || line.starts_with("endif ") || line.starts_with("endif/") {
                // The guard's end: only blank lines and comments may follow.
                return guard.is_some() && skip_blank_and_comments(b, i) >= b.len();
            }
            let Some((name, angle)) = include_name(line) else {
                return false;
            };
            if depth >= MAX_INCLUDE_DEPTH {
                return false;
            }
            let project = if angle {
                find_in(&self.angle_dirs, None, name)
            } else {
                match find_in(&self.quote_dirs, Some(dir), name) {
                    Some(p) => Some(p),
                    // Not the project's: whatever it is, it ends what is known to lead.
                    None => return false,
                }
            };
            match project {
                Some(file) => {
                    if self.read >= MAX_HEADERS_READ {
                        return false;
                    }
                    self.read += 1;
                    let Ok(bytes) = std::fs::read(&file) else {
                        return false;
                    };
                    let text = String::from_utf8_lossy(&bytes);
                    let dir = file.parent().unwrap_or(Path::new("."));
                    if !self.walk(dir, &text, depth + 1) {
                        return false;
                    }
                }
                None => {
                    self.names.insert(name.to_string());
                }
            }
        }
    }
}

/// `X` of a directive line `keyword X` (after the `#`).
fn directive_arg<'t>(line: &'t str, keyword: &str) -> Option<&'t str> {
    let rest = line.strip_prefix(keyword)?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let arg = rest.trim();
    let ident = arg.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    (ident && !arg.is_empty()).then_some(arg)
}

/// The header an `include` directive line names, and whether in angle brackets; `None` for
/// any other line (a macro name, `include_next`, text after the name).
fn include_name(line: &str) -> Option<(&str, bool)> {
    let rest = line.strip_prefix("include")?.trim_start();
    let (close, angle) = match rest.as_bytes().first()? {
        b'<' => ('>', true),
        b'"' => ('"', false),
        _ => return None,
    };
    let inner = &rest[1..];
    let end = inner.find(close)?;
    let after = inner[end + 1..].trim();
    let trailing_comment = after.starts_with("//")
        || (after.starts_with("/*")
            && after
                .find("*/")
                .is_some_and(|k| after[k + 2..].trim().is_empty()));
    (after.is_empty() || trailing_comment).then(|| (inner[..end].trim(), angle))
}

/// The file `name` in `first` (if given) or in one of `dirs`, as clang looks.
pub(super) fn find_in(dirs: &[&str], first: Option<&Path>, name: &str) -> Option<PathBuf> {
    first
        .into_iter()
        .chain(dirs.iter().map(Path::new))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// `args` without include directories, warning options (clang does not hold a PCH to
/// them; system headers warn about nothing) and language (the header's is set apart).
fn header_flags(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        // `-Wp,-DX` passes a definition; `-Wl,`/`-Wa,` go to other tools (kept: harmless).
        let warning = a.starts_with("-W") && !a.contains(',') || a == "-w" || a == "-pedantic";
        if a == "-I" || a == "-x" || a == "-iquote" {
            i += 1;
        } else if !(a.starts_with("-I")
            || a.starts_with("-x")
            || a.starts_with("-iquote")
            || warning)
        {
            out.push(a.to_string());
        }
    }
    out
}

/// The directories `args` gives with `flag` (`-I`, `-iquote`), in order.
fn dirs_of<'a>(args: &'a [String], flag: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == flag {
            if let Some(d) = it.next() {
                out.push(d.as_str());
            }
        } else if let Some(d) = a.strip_prefix(flag).filter(|d| !d.is_empty()) {
            out.push(d);
        }
    }
    out
}

/// The `-I` directories of `args`, in order.
pub(super) fn include_dirs(args: &[String]) -> Vec<&str> {
    dirs_of(args, "-I")
}

/// Where `#include "..."` looks after the including file's directory: `-iquote`, then `-I`.
pub(super) fn quote_dirs(args: &[String]) -> Vec<&str> {
    let mut out = dirs_of(args, "-iquote");
    out.extend(include_dirs(args));
    out
}

fn skip_blank_and_comments(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i = crate::text::scan::block_comment_end(b, i);
        } else {
            return i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::test_corpus::{assert_same, corpus, flags_for};
    use crate::frontend::{lower_file, lower_file_shared, slow_test_with_libclang};

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn names(path: &Path, text: &str, args: &[String]) -> Vec<String> {
        leading_set(path, text, args)
            .map(|(_, n)| n.into_iter().collect())
            .unwrap_or_default()
    }

    #[test]
    fn the_leading_block_of_angle_includes() {
        let p = Path::new("/nowhere/a.c");
        let text = "// header comment\n/* block\n */\n#include <stdio.h>\n#  include<stdlib.h> // why\n\n#include <omp.h>\n#include <math.h> /* done */\nint x;\n#include <string.h>\n";
        assert_eq!(names(p, text, &[]), s(&["math.h", "stdio.h", "stdlib.h"]));
        assert!(names(p, "#define N 4\n#include <stdio.h>\n", &[]).is_empty());
        assert!(
            names(p, "#include <omp.h>\n", &[]).is_empty(),
            "omp.h is never shared"
        );
        assert_eq!(
            names(p, "#include <a.h> /* x\n */\n#include <b.h>\n", &[]),
            s(&[])
        );
        assert_eq!(names(p, "#include <a.h>", &[]), s(&["a.h"]));
        // A header not found in the project ends the block; so does a forced include.
        assert_eq!(
            names(
                p,
                "#include <a.h>\n#include \"gone.h\"\n#include <b.h>\n",
                &[]
            ),
            s(&["a.h"])
        );
        assert!(names(p, "#include <a.h>\n", &s(&["-include", "x.h"])).is_empty());
    }

    #[test]
    fn project_headers_lead_with_their_own_system_headers() {
        let dir = tempfile::tempdir().unwrap();
        let inc = dir.path().join("inc");
        std::fs::create_dir(&inc).unwrap();
        std::fs::write(
            dir.path().join("common.h"),
            "/* guard */\n#ifndef COMMON_H\n#define COMMON_H\n#include <vector>\n#include \"more.h\"\n#include <map>\n#endif // COMMON_H\n",
        )
        .unwrap();
        std::fs::write(inc.join("more.h"), "#pragma once\n#include <string>\n").unwrap();
        // `<utils.h>` is found in an include directory: the project's, walked like a quoted one.
        std::fs::write(
            inc.join("utils.h"),
            "#include <cmath>\nint f();\n#include <list>\n",
        )
        .unwrap();
        let main = dir.path().join("main.cpp");
        let args = vec![format!("-I{}", inc.display())];
        let text = "#include <cstdio>\n#include \"common.h\"\n#include <utils.h>\n#include <set>\n";
        assert_eq!(
            names(&main, text, &args),
            s(&["cmath", "cstdio", "map", "string", "vector"]),
            "up to the first line that is not an include, in any header"
        );
        // A guard with something else inside ends the block where that is.
        std::fs::write(
            dir.path().join("decl.h"),
            "#ifndef D\n#define D\n#include <array>\nint g();\n#endif\n#include <deque>\n",
        )
        .unwrap();
        assert_eq!(
            names(&main, "#include \"decl.h\"\n#include <set>\n", &args),
            s(&["array"])
        );
        // Without its `#define`, an `#ifndef` is a condition, not a guard.
        std::fs::write(
            dir.path().join("cond.h"),
            "#ifndef X\n#include <array>\n#endif\n",
        )
        .unwrap();
        assert!(names(&main, "#include \"cond.h\"\n", &args).is_empty());
    }

    #[test]
    fn flags_lose_include_directories_warnings_and_language() {
        let args = s(&[
            "-I",
            "/x",
            "-I/y",
            "-x",
            "c++",
            "-std=c++17",
            "-Wall",
            "-DN=3",
            "-xc",
        ]);
        assert_eq!(header_flags(&args), s(&["-std=c++17", "-DN=3"]));
        assert_eq!(header_flags(&s(&["-Wp,-DX=1", "-w"])), s(&["-Wp,-DX=1"]));
        assert_eq!(include_dirs(&args), vec!["/x", "/y"]);
        assert_eq!(quote_dirs(&s(&["-I/a", "-iquote", "/q"])), vec!["/q", "/a"]);
    }

    /// Sets are planned for what several files share, largest first; a file parses after
    /// the largest planned set it contains, not after one that an include directory of its
    /// own could shadow, and lowers as it does alone.
    #[test]
    fn sets_that_add_only_cheap_headers_are_not_made() {
        let planned = |sets: &[&[&str]]| -> Vec<Arc<Planned>> {
            sets.iter()
                .map(|names| {
                    Arc::new(Planned {
                        names: names.iter().map(|n| n.to_string()).collect(),
                        name: String::new(),
                        made: OnceLock::new(),
                    })
                })
                .collect()
        };
        let kept = |sets: &[&[&str]], cxx: bool| -> Vec<Vec<String>> {
            without_cheap_supersets(planned(sets), cxx)
                .iter()
                .map(|p| p.names.iter().cloned().collect())
                .collect()
        };
        let cxx: &[&[&str]] = &[
            &["iostream", "stdio.h", "string.h", "vector"],
            &["iostream", "math.h", "vector"],
            &["iostream", "stdio.h", "vector"],
            &["iostream", "vector"],
            &["random"],
        ];
        assert_eq!(
            kept(cxx, true),
            vec![
                s(&["iostream", "math.h", "vector"]),
                s(&["iostream", "vector"]),
                s(&["random"])
            ]
        );
        // In C, <math.h> is as cheap as the others.
        let c: &[&[&str]] = &[&["math.h", "stdio.h"], &["stdio.h"]];
        assert_eq!(kept(c, false), vec![s(&["stdio.h"])]);
        assert_eq!(
            kept(c, true),
            vec![s(&["math.h", "stdio.h"]), s(&["stdio.h"])]
        );
    }

    #[test]
    fn sets_shared_by_three_files_and_shadowed_ones_refused() {
        if !slow_test_with_libclang(
            "shared_headers::sets_shared_by_three_files_and_shadowed_ones_refused",
        ) {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let body = "int main(void) { double a[4] = {0}; printf(\"%f\\n\", a[0]); return 0; }\n";
        let texts = [
            "#include <stdio.h>\n#include <stdlib.h>\n",
            "#include <stdlib.h>\n#include <stdio.h>\n",
            "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n",
            "#include <stdio.h>\n",
        ];
        let mut files = Vec::new();
        for (i, t) in texts.iter().enumerate() {
            let p = dir.path().join(format!("f{i}.c"));
            std::fs::write(&p, format!("{t}{body}")).unwrap();
            files.push(p);
        }
        // An include directory holding a `stddef.h` (which `<stdlib.h>` includes).
        let shadow = dir.path().join("shadow");
        std::fs::create_dir(&shadow).unwrap();
        std::fs::write(shadow.join("stddef.h"), "#error not the system's\n").unwrap();
        let plain: Vec<String> = Vec::new();
        let shadowed = vec![format!("-I{}", shadow.display())];
        let args = [&plain, &plain, &plain, &plain];
        let shared = SharedHeaders::plan(
            files
                .iter()
                .zip(args)
                .map(|(p, a)| (p.as_path(), a.as_slice())),
            None,
        )
        .unwrap();
        let planned: Vec<Vec<String>> = shared
            .planned
            .values()
            .flatten()
            .map(|p| p.names.iter().cloned().collect())
            .collect();
        assert_eq!(
            planned,
            vec![s(&["stdio.h", "stdlib.h"])],
            "f3 alone with stdio.h only"
        );
        for (p, a) in files.iter().zip(args) {
            let text = std::fs::read_to_string(p).unwrap();
            let got = lower_file_shared(Some(&shared), p, Some(&text), a).unwrap();
            assert_same(
                p,
                "a parse after shared headers",
                &got,
                &lower_file(p, Some(&text), a).unwrap(),
            );
        }
        let text = std::fs::read_to_string(&files[0]).unwrap();
        assert!(shared.pch_for(&files[0], &text, &shadowed).is_none());
        let stats = shared.stats();
        assert_eq!(
            (
                stats.planned,
                stats.built,
                stats.refused,
                stats.used,
                stats.fallbacks
            ),
            (1, 1, 0, 3, 0),
            "{stats:?}"
        );
        let pch = shared.dir.path().to_path_buf();
        let made = std::fs::read_dir(&pch).unwrap().flatten();
        assert_eq!(
            made.filter(|e| e.path().extension().is_some_and(|x| x == "pch"))
                .count(),
            1
        );
        drop(shared);
        assert!(!pch.exists(), "the run's PCH directory goes with it");
    }

    /// Every program of the test corpora lowers after the shared headers of a run over all
    /// of them exactly as it does alone.
    #[test]
    fn corpus_lowers_after_shared_headers_as_alone() {
        if !slow_test_with_libclang("shared_headers::corpus_lowers_after_shared_headers_as_alone") {
            return;
        }
        let files = corpus();
        let flags: Vec<Vec<String>> = files.iter().map(|p| flags_for(p)).collect();
        let shared = SharedHeaders::plan(
            files
                .iter()
                .zip(&flags)
                .map(|(p, f)| (p.as_path(), f.as_slice())),
            None,
        )
        .unwrap();
        for (path, flags) in files.iter().zip(&flags) {
            let text = std::fs::read_to_string(path).unwrap();
            let fresh = lower_file(path, Some(&text), flags).expect("fresh parse");
            let after = lower_file_shared(Some(&shared), path, Some(&text), flags).expect("parse");
            assert_same(path, "a parse after shared headers", &after, &fresh);
        }
        let stats = shared.stats();
        assert!(
            stats.built >= 3 && stats.used * 2 > files.len(),
            "{stats:?}"
        );
        assert_eq!((stats.refused, stats.fallbacks), (0, 0), "{stats:?}");
    }

    #[test]
    fn the_store_keeps_the_most_recently_used_within_its_budget() {
        let dir = tempfile::tempdir().unwrap();
        let now = std::time::SystemTime::now();
        for (i, name) in ["old", "mid", "new"].iter().enumerate() {
            let p = dir.path().join(format!("{name}.pch"));
            std::fs::write(&p, "123456").unwrap();
            std::fs::write(p.with_extension("files"), "").unwrap();
            let f = std::fs::File::options().append(true).open(&p).unwrap();
            f.set_modified(now - std::time::Duration::from_secs(100 - i as u64 * 10))
                .unwrap();
        }
        let stale = dir.path().join(".1-x.pch.tmp");
        std::fs::write(&stale, "").unwrap();
        let f = std::fs::File::options().append(true).open(&stale).unwrap();
        f.set_modified(now - std::time::Duration::from_secs(7200))
            .unwrap();
        prune(dir.path(), 12);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, s(&["mid.files", "mid.pch", "new.files", "new.pch"]));
    }

    /// A store keeps a set's PCH for the next run, which uses it while the headers it holds
    /// are unchanged and makes it again when one changed.
    #[test]
    fn the_store_keeps_a_pch_while_its_headers_are_unchanged() {
        if !slow_test_with_libclang(
            "shared_headers::the_store_keeps_a_pch_while_its_headers_are_unchanged",
        ) {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("store");
        let files: Vec<PathBuf> = (0..3)
            .map(|i| {
                let p = dir.path().join(format!("f{i}.c"));
                std::fs::write(
                    &p,
                    format!("#include <stdlib.h>\nint f{i}(void) {{ return abs(-{i}); }}\n"),
                )
                .unwrap();
                p
            })
            .collect();
        let args: Vec<String> = Vec::new();
        let run = || {
            let shared = SharedHeaders::plan(
                files.iter().map(|p| (p.as_path(), args.as_slice())),
                Some(&store),
            )
            .unwrap();
            for p in &files {
                let text = std::fs::read_to_string(p).unwrap();
                let got = lower_file_shared(Some(&shared), p, Some(&text), &args).unwrap();
                assert_same(
                    p,
                    "a parse after a stored PCH",
                    &got,
                    &lower_file(p, Some(&text), &args).unwrap(),
                );
            }
            let st = shared.stats();
            (st.built, st.reused, st.used, st.fallbacks)
        };
        assert_eq!(run(), (1, 0, 3, 0), "made and kept");
        assert_eq!(run(), (0, 1, 3, 0), "kept from the first run");
        // A header of the set changed size (as a package upgrade would).
        let list = std::fs::read_dir(&store)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "files"))
            .unwrap();
        let text = std::fs::read_to_string(&list).unwrap();
        let (len, rest) = text.split_once(' ').unwrap();
        let bumped = format!("{} {rest}", len.parse::<u64>().unwrap() + 1);
        std::fs::write(&list, bumped).unwrap();
        assert_eq!(run(), (1, 0, 3, 0), "made again");
        let pchs = std::fs::read_dir(&store).unwrap().flatten();
        assert_eq!(
            pchs.filter(|e| e.path().extension().is_some_and(|x| x == "pch"))
                .count(),
            1
        );
    }
}
