//! Translation units kept per file between edits, for the language server.
//!
//! The first parse of a path is a plain one, which answers soonest (building a precompiled
//! preamble, clang's PCH of the leading `#include` block, costs LULESH's first parse 530 ms
//! against 300); a unit with a preamble is then made on a thread of its own from the same
//! text and replaces the plain one when it is ready, unless the entry changed meanwhile. Each
//! later text of that path with the same arguments is a `clang_reparseTranslationUnit`, which
//! reuses the preamble while the block is unchanged and so skips the headers (a reparse of
//! the plain unit, before the preamble is ready, is a whole parse). Different arguments, or a
//! failed reparse (the translation unit is then invalid), parse anew. Lowering a reparsed unit gives the same `Module` as a fresh
//! parse of the same text (tested over the corpora in `tests.rs`); the cache only saves time.
//! A unit with a preamble walks only its local declarations; lowering finds the project
//! headers' declarations from a record the plain unit's lowering made
//! ([`super::header_decls`]), and falls back to a plain unit when the record does not hold.
//!
//! A translation unit is never used by two threads at once: each entry has its own mutex,
//! held while the unit is parsed and lowered. The cache itself is locked only to find or
//! drop entries. It holds at most `capacity` units; the least recently used goes first.

use super::header_decls::HeaderDecls;
use super::libclang::{self, TranslationUnit};
use super::shared_headers;
use super::{Walk, Walked};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// How many parses of each kind the cache has made (for tests and benchmarks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TuStats {
    /// Fresh parses (first text of a path, new arguments, or after a failed reparse).
    pub parses: usize,
    /// Reparses of a kept translation unit.
    pub reparses: usize,
    /// Reparses libclang refused (each followed by a fresh parse).
    pub failed_reparses: usize,
    /// Time spent inside libclang's parses and reparses, in microseconds (for profiles: the
    /// rest of `parse` is lowering).
    pub libclang_micros: u64,
    /// Units with a preamble made in the background that replaced a plain first parse.
    pub preambles: usize,
    /// Lowerings of a unit that walks only its local declarations, the project headers'
    /// found again from a record ([`super::header_decls`]).
    pub replays: usize,
    /// First parses made after a stored PCH of the file's leading system headers
    /// ([`TuCache::with_header_store`]).
    pub after_pch: usize,
}

impl TuStats {
    /// (parses, reparses, failed reparses): what tests compare (times vary).
    pub fn counts(&self) -> (usize, usize, usize) {
        (self.parses, self.reparses, self.failed_reparses)
    }
}

/// Clears an entry's `preamble_for` when the build for those arguments ends.
struct BuildDone<'a>(&'a Mutex<Entry>, &'a [String]);

impl Drop for BuildDone<'_> {
    fn drop(&mut self) {
        let mut e = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if e.preamble_for.as_deref() == Some(self.1) {
            e.preamble_for = None;
        }
    }
}

/// The one background preamble build allowed at a time, held until dropped.
struct Turn<'a>(&'a (Mutex<bool>, Condvar));

impl<'a> Turn<'a> {
    fn take(gate: &'a (Mutex<bool>, Condvar)) -> Turn<'a> {
        let (busy, freed) = gate;
        let mut b = busy.lock().unwrap_or_else(|p| p.into_inner());
        while *b {
            b = freed.wait(b).unwrap_or_else(|p| p.into_inner());
        }
        *b = true;
        Turn(gate)
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let (busy, freed) = self.0;
        *busy.lock().unwrap_or_else(|p| p.into_inner()) = false;
        freed.notify_one();
    }
}

pub struct TuCache {
    capacity: usize,
    slots: Mutex<Slots>,
    parses: AtomicUsize,
    reparses: AtomicUsize,
    failed_reparses: AtomicUsize,
    libclang_micros: std::sync::atomic::AtomicU64,
    preambles: Arc<AtomicUsize>,
    replays: AtomicUsize,
    /// Preambles being made in the background, and a signal when one is done.
    pending: Arc<(Mutex<usize>, Condvar)>,
    /// Whether a preamble is being parsed now: one at a time, so that opening many files
    /// at once does not hold as many parses in memory (20 copies of LULESH opened at once: peak
    /// 838 -> 730 MiB).
    building: Arc<(Mutex<bool>, Condvar)>,
    /// Where the PCHs of the system headers that lead files are kept between sessions (see
    /// [`Self::with_header_store`]).
    header_store: Option<PathBuf>,
    /// First parses made after a stored PCH.
    after_pch: AtomicUsize,
}

#[derive(Default)]
struct Slots {
    by_path: HashMap<String, Slot>,
    /// Bumped on every use: a slot's `used` orders the slots for eviction.
    clock: u64,
}

struct Slot {
    entry: Arc<Mutex<Entry>>,
    used: u64,
}

#[derive(Default)]
struct Entry {
    args: Vec<String>,
    tu: Option<TranslationUnit>,
    /// `tu` was parsed without a preamble (or, once lowered, dropped: a reparse of a plain
    /// unit is a whole parse anyway, and it holds every header's declarations); one with a
    /// preamble is on its way.
    plain: bool,
    /// The arguments of the unit with a preamble being made in the background, if one is.
    preamble_for: Option<Vec<String>>,
    /// The project headers' declarations, recorded by the lowering of the last plain unit,
    /// for units whose walks meet only their local declarations ([`super::header_decls`]).
    headers: Option<HeaderDecls>,
    /// Units with a preamble walk all of it (a record could not be made or did not hold
    /// for its own unit, so it would not hold for the next).
    whole_walks: bool,
}

impl Entry {
    /// Whether a unit with a preamble made with `args` is what the entry waits for.
    fn awaits_preamble(&self, args: &[String]) -> bool {
        self.plain && self.args == args
    }

    /// Keeps what a recording lowering made of the project headers; without a record, units
    /// with a preamble walk all of it.
    fn keep_record(&mut self, walked: Walked) {
        self.headers = match walked {
            Walked::Recorded(h) => Some(h),
            _ => None,
        };
        self.whole_walks |= self.headers.is_none();
    }
}

impl std::fmt::Debug for TuCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TuCache")
            .field("capacity", &self.capacity)
            .field("len", &self.len())
            .field("stats", &self.stats())
            .finish()
    }
}

impl TuCache {
    /// A cache of at most `capacity` translation units (at least one).
    pub fn new(capacity: usize) -> TuCache {
        TuCache {
            capacity: capacity.max(1),
            slots: Mutex::new(Slots::default()),
            parses: AtomicUsize::new(0),
            reparses: AtomicUsize::new(0),
            failed_reparses: AtomicUsize::new(0),
            libclang_micros: std::sync::atomic::AtomicU64::new(0),
            preambles: Arc::default(),
            replays: AtomicUsize::new(0),
            pending: Arc::default(),
            building: Arc::default(),
            header_store: None,
            after_pch: AtomicUsize::new(0),
        }
    }

    /// The cache, keeping in `store` (omplens's disk cache) the PCH of the system headers
    /// that lead each file it parses: a file's first parse, the one an editor waits for when it
    /// opens the file, reads its headers from a PCH an earlier session (or `check` run) left
    /// there (LULESH: 90 ms against 215), and when none is there, one is made in the
    /// background, after the unit with a preamble, for the next session. The store is the one
    /// `check` keeps its shared headers in ([`super::SharedHeaders`]), under the same names.
    pub fn with_header_store(mut self, store: Option<PathBuf>) -> TuCache {
        self.header_store = store;
        self
    }

    /// A first (plain) parse of `contents`: after the stored PCH of its leading system headers
    /// when the store has one (as `check` parses after a shared set; a parse after it that
    /// reports a problem with it is done again without it, and the PCH leaves the store).
    fn first_parse(
        &self,
        path: &str,
        args: &[String],
        contents: &str,
    ) -> Result<TranslationUnit, String> {
        let stored = self.header_store.as_deref().and_then(|store| {
            shared_headers::stored_leading_pch(store, Path::new(path), contents, args)
        });
        if let Some(pch) = stored {
            if let Some(tu) = super::parse_after_usable_pch(path, args, Some(contents), &pch) {
                self.after_pch.fetch_add(1, Ordering::Relaxed);
                return Ok(tu);
            }
            shared_headers::drop_stored(&pch);
        }
        libclang::parse_with(path, args, Some(contents), false)
    }

    /// Waits until no preamble is being made in the background (for tests that need the
    /// next use to be a reparse with a preamble).
    pub fn settle(&self) {
        let (count, done) = &*self.pending;
        let mut n = count.lock().unwrap_or_else(|p| p.into_inner());
        while *n > 0 {
            n = done.wait(n).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Waits at most `limit` until no preamble is being made in the background; whether none
    /// is (the process may end without pulling libclang from under a build).
    pub fn settle_within(&self, limit: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + limit;
        let (count, done) = &*self.pending;
        let mut n = count.lock().unwrap_or_else(|p| p.into_inner());
        while *n > 0 {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return false;
            }
            n = done
                .wait_timeout(n, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        true
    }

    /// Makes a unit with a preamble for `entry` from `contents` on a thread of its own; it
    /// replaces the entry's plain unit if the entry still holds one made with `args`.
    fn make_preamble(
        &self,
        entry: &Arc<Mutex<Entry>>,
        path: &str,
        args: &[String],
        contents: &str,
        local_walks: bool,
    ) {
        /// Counts the build out when it ends, however it ends.
        struct Pending(Arc<(Mutex<usize>, Condvar)>);
        impl Drop for Pending {
            fn drop(&mut self) {
                let (count, done) = &*self.0;
                let mut n = count.lock().unwrap_or_else(|p| p.into_inner());
                *n = n.saturating_sub(1);
                done.notify_all();
            }
        }
        *self.pending.0.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        let pending = Pending(self.pending.clone());
        let building = self.building.clone();
        let preambles = self.preambles.clone();
        let store = self.header_store.clone();
        let (entry, path, args, contents) = (
            entry.clone(),
            path.to_string(),
            args.to_vec(),
            contents.to_string(),
        );
        // A thread that cannot be started leaves the plain unit (each use reparses it whole).
        let _ = std::thread::Builder::new()
            .name("omplens-preamble".into())
            .spawn(move || {
                let _pending = pending;
                // Locals drop before `_pending` counts the build out: the entry (and a unit
                // not taken) is gone by then, so a settled cache holds every unit it made.
                let (entry, path, args, contents) = (entry, path, args, contents);
                if libclang::ensure_loaded().is_err() {
                    return;
                }
                // Work nobody waits for yet: the analyses of open files come first.
                libclang::lower_thread_priority();
                let made = {
                    // However the build ends, the entry stops waiting for it (after `e` below
                    // is unlocked: locals drop in reverse order).
                    let _done = BuildDone(&entry, &args);
                    let _turn = Turn::take(&building);
                    // Still wanted? The file may have been closed (the cache dropped the
                    // entry) or parsed anew while this build waited for its turn.
                    let wanted = Arc::strong_count(&entry) > 1
                        && entry
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .awaits_preamble(&args);
                    let tu = wanted
                        .then(|| {
                            libclang::parse_with_preamble(
                                &path,
                                &args,
                                Some(&contents),
                                local_walks,
                            )
                        })
                        .and_then(Result::ok);
                    let mut e = entry.lock().unwrap_or_else(|p| p.into_inner());
                    match tu {
                        Some(tu) if e.awaits_preamble(&args) => {
                            e.tu = Some(tu);
                            e.plain = false;
                            preambles.fetch_add(1, Ordering::Relaxed);
                            true
                        }
                        _ => false,
                    }
                };
                // Then, for the next session's first parse of the file, its leading system
                // headers in the store (a stored PCH is found at once).
                if let (true, Some(store)) = (made, store) {
                    shared_headers::store_leading_pch(&store, Path::new(&path), &contents, &args);
                }
            });
    }

    pub fn stats(&self) -> TuStats {
        TuStats {
            parses: self.parses.load(Ordering::Relaxed),
            reparses: self.reparses.load(Ordering::Relaxed),
            failed_reparses: self.failed_reparses.load(Ordering::Relaxed),
            libclang_micros: self.libclang_micros.load(Ordering::Relaxed),
            preambles: self.preambles.load(Ordering::Relaxed),
            replays: self.replays.load(Ordering::Relaxed),
            after_pch: self.after_pch.load(Ordering::Relaxed),
        }
    }

    /// How many translation units are kept.
    pub fn len(&self) -> usize {
        self.lock_slots().by_path.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops the translation unit of `path` (a closed file). One being lowered right now is
    /// disposed when that lowering ends.
    pub fn forget(&self, path: &str) {
        self.lock_slots().by_path.remove(path);
    }

    /// Drops every translation unit (the process is ending); as in [`Self::forget`], one
    /// being lowered right now is disposed when that lowering ends.
    pub fn clear(&self) {
        let slots = std::mem::take(&mut self.lock_slots().by_path);
        drop(slots);
    }

    fn lock_slots(&self) -> std::sync::MutexGuard<'_, Slots> {
        // Nothing panics while the map is locked; a poisoned lock still holds a valid map.
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The entry of `path`, made if needed and marked as just used; evicts the least
    /// recently used entries beyond the capacity.
    fn entry(&self, path: &str) -> Arc<Mutex<Entry>> {
        let mut slots = self.lock_slots();
        slots.clock += 1;
        let now = slots.clock;
        if let Some(slot) = slots.by_path.get_mut(path) {
            slot.used = now;
            return slot.entry.clone();
        }
        while slots.by_path.len() >= self.capacity {
            let Some(oldest) = slots
                .by_path
                .iter()
                .min_by_key(|(_, s)| s.used)
                .map(|(p, _)| p.clone())
            else {
                break;
            };
            slots.by_path.remove(&oldest);
        }
        let entry = Arc::new(Mutex::new(Entry::default()));
        slots.by_path.insert(
            path.to_string(),
            Slot {
                entry: entry.clone(),
                used: now,
            },
        );
        entry
    }

    /// Brings the translation unit of `path` to `contents` under `args` (a reparse when the
    /// kept unit was parsed with the same arguments, else a plain parse, and a unit with a
    /// preamble made in the background) and runs
    /// `f` on it, the unit locked for this thread throughout. Errs when libclang parses
    /// nothing (the text of the error, as [`libclang::parse`] gives it).
    pub(super) fn with_tu<R>(
        &self,
        path: &str,
        args: &[String],
        contents: &str,
        f: impl Fn(&TranslationUnit, Walk<'_>) -> (R, Walked),
    ) -> Result<R, String> {
        // A precompiled preamble loses a file's `#define` of a macro the command line also
        // defines (the command line's value wins in the main file, unlike a plain parse):
        // such files are parsed afresh every time.
        let started = std::time::Instant::now();
        let timed = |t: std::time::Instant| {
            let us = t.elapsed().as_micros().min(u64::MAX as u128) as u64;
            self.libclang_micros.fetch_add(us, Ordering::Relaxed);
        };
        if redefines_command_line_macro(args, contents) {
            self.forget(path);
            self.parses.fetch_add(1, Ordering::Relaxed);
            let tu = libclang::parse_with(path, args, Some(contents), false);
            timed(started);
            return Ok(f(&tu?, Walk::Whole).0);
        }
        let entry = self.entry(path);
        let mut e = entry.lock().unwrap_or_else(|p| {
            // A panic while lowering: the unit may be mid-use; parse anew.
            let mut e = p.into_inner();
            e.tu = None;
            e
        });
        let reusable = e.tu.is_some() && e.args == args;
        if !reusable {
            e.tu = None;
            e.headers = None;
            e.whole_walks = false;
        }
        // A unit that walks only its local declarations needs a record that holds for this
        // text; without one, a plain parse (which records) comes instead of a reparse.
        let record_holds = e.headers.as_ref().is_some_and(|h| h.holds_for(contents));
        if e.tu.as_ref().is_some_and(|t| t.walks_local_only()) && !record_holds {
            e.tu = None;
        }
        if let Some(tu) = e.tu.as_mut() {
            match tu.reparse(path, contents) {
                Ok(()) => {
                    self.reparses.fetch_add(1, Ordering::Relaxed);
                }
                Err(_) => {
                    // The unit is invalid after a failed reparse: dispose of it now.
                    self.failed_reparses.fetch_add(1, Ordering::Relaxed);
                    e.tu = None;
                }
            }
        }
        let plain = e.tu.is_none();
        if plain {
            e.args = args.to_vec();
            self.parses.fetch_add(1, Ordering::Relaxed);
            let tu = self.first_parse(path, args, contents);
            timed(started);
            e.tu = Some(tu?);
            e.plain = true;
            if e.preamble_for.as_deref() != Some(args) {
                e.preamble_for = Some(args.to_vec());
                self.make_preamble(&entry, path, args, contents, !e.whole_walks);
            }
        } else {
            timed(started);
        }
        let e = &mut *e;
        let Some(tu) = e.tu.as_ref() else {
            return Err("libclang kept no translation unit".to_string());
        };
        // (A plain unit made after a stored PCH walks only what is not in the PCH: every
        // project header's declaration still, which is what it records.)
        if e.plain || !tu.walks_local_only() {
            // A plain unit records the project headers' declarations for the unit with a
            // preamble that replaces it (a unit that walks its whole preamble needs none).
            if !e.plain {
                return Ok(f(tu, Walk::Whole).0);
            }
            let (r, walked) = f(tu, Walk::Record);
            e.keep_record(walked);
            // Lowered and recorded, the plain unit is no longer needed: the next text parses
            // anew (as its reparse would) unless the unit with a preamble has come.
            if e.preamble_for.is_some() {
                e.tu = None;
            }
            return Ok(r);
        }
        if let Some(h) = e.headers.as_ref().filter(|_| record_holds) {
            let (r, walked) = f(tu, Walk::Replay(h));
            if !matches!(walked, Walked::ReplayFailed) {
                self.replays.fetch_add(1, Ordering::Relaxed);
                return Ok(r);
            }
            e.whole_walks = true;
        }
        // The record did not describe its unit: lower a plain unit of this text, and make
        // the unit with a preamble again, one that walks all of it.
        let started = std::time::Instant::now();
        self.parses.fetch_add(1, Ordering::Relaxed);
        let tu = libclang::parse_with(path, args, Some(contents), false);
        timed(started);
        let tu = tu?;
        let (r, walked) = f(&tu, Walk::Record);
        e.keep_record(walked);
        // The plain unit is dropped at once (see above) and the unit with a preamble made
        // again, walking all of it.
        e.tu = None;
        e.plain = true;
        e.preamble_for = Some(args.to_vec());
        self.make_preamble(&entry, path, args, contents, !e.whole_walks);
        Ok(r)
    }
}

/// Whether `text` has a `#define` or `#undef` of a macro that `args` define or undefine
/// (`-DN=4`, `-D N`, `-UN`).
fn redefines_command_line_macro(args: &[String], text: &str) -> bool {
    let mut names = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let def = match a.as_str() {
            "-D" | "-U" => it.next().map(String::as_str),
            s => s.strip_prefix("-D").or_else(|| s.strip_prefix("-U")),
        };
        if let Some(d) = def {
            let name = d.split(['=', '(']).next().unwrap_or("").trim();
            if !name.is_empty() {
                names.push(name);
            }
        }
    }
    if names.is_empty() {
        return false;
    }
    text.lines().any(|line| {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            return false;
        };
        let rest = rest.trim_start();
        let Some(rest) = rest
            .strip_prefix("define")
            .or_else(|| rest.strip_prefix("undef"))
        else {
            return false;
        };
        let name = rest
            .trim_start()
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        names.contains(&name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::test_corpus::{assert_same, corpus, flags_for};
    use crate::frontend::{ensure_libclang, lower_file, lower_file_cached};
    use crate::ir::render_module;
    use std::path::Path;

    #[test]
    fn a_file_redefining_a_command_line_macro_lowers_like_a_fresh_parse() {
        assert!(ensure_libclang().is_ok());
        let path = std::env::temp_dir().join(format!("omplens-tu-macro-{}.c", std::process::id()));
        let text = "#include <stdlib.h>\n#define NX 256\nint a[NX];\nint main(void) { return a[NX - 1]; }\n";
        std::fs::write(&path, text).unwrap();
        let args = vec!["-DNX=not a number".to_string()];
        let cache = TuCache::new(2);
        let fresh = lower_file(&path, Some(text), &args).unwrap();
        assert_eq!(fresh.errors().count(), 0, "{:?}", fresh.diagnostics);
        for _ in 0..2 {
            let cached = lower_file_cached(&cache, &path, text, &args).unwrap();
            assert_eq!(render_module(&cached), render_module(&fresh));
        }
        assert_eq!(cache.len(), 0, "such a file keeps no unit");
        let _ = std::fs::remove_file(&path);
        assert!(redefines_command_line_macro(
            &["-D".into(), "N".into()],
            "#  undef N\n"
        ));
        assert!(!redefines_command_line_macro(
            &["-DN=1".into()],
            "#define NN 2\n"
        ));
    }

    /// `text` with a declaration inserted at the start of its middle line: every offset
    /// after it moves, and the leading `#include` block (the preamble) stays as it was.
    fn edited(text: &str) -> String {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let mid = lines.len() / 2;
        let mut out = lines[..mid].concat();
        out.push_str("int omplens_edit_probe;\n");
        out.push_str(&lines[mid..].concat());
        out
    }

    /// Lowering through the cache (a first parse with a preamble, then reparses of an edited
    /// text and of the original again) gives the module a fresh parse gives, for every
    /// program of the test corpora.
    #[test]
    fn reparsed_units_lower_like_fresh_parses() {
        if !crate::frontend::slow_test_with_libclang(
            "tu_cache::reparsed_units_lower_like_fresh_parses",
        ) {
            return;
        }
        let files = corpus();
        assert!(files.len() > 200, "{} programs", files.len());
        let cache = TuCache::new(4);
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let flags = flags_for(path);
            let fresh = lower_file(path, Some(&text), &flags).expect("fresh parse");
            let first = lower_file_cached(&cache, path, &text, &flags).expect("first parse");
            assert_same(path, "the first parse", &first, &fresh);
            // The unit with a preamble, made in the background, is what the reparses use.
            cache.settle();
            let other = edited(&text);
            let fresh_other = lower_file(path, Some(&other), &flags).expect("fresh parse");
            let reparsed = lower_file_cached(&cache, path, &other, &flags).expect("reparse");
            assert_same(path, "a reparse of an edited text", &reparsed, &fresh_other);
            let back = lower_file_cached(&cache, path, &text, &flags).expect("reparse");
            assert_same(path, "a reparse back to the original", &back, &fresh);
        }
        let stats = cache.stats();
        assert_eq!(stats.parses, files.len(), "{stats:?}");
        assert_eq!(stats.reparses, 2 * files.len(), "{stats:?}");
        assert_eq!(stats.failed_reparses, 0);
        assert_eq!(stats.preambles, files.len(), "{stats:?}");
        assert_eq!(cache.len(), 4, "bounded by its capacity");
    }

    const PROJECT_HEADER: &str = r#"#pragma once
#include <vector>
namespace geo {
inline double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
}
template <typename T> T *make(int n) { return new T[n]; }
struct Grid { double *x; int n; double &at(int i) { return x[i]; } };
static const int NB = 8;
inline void scale(double *v, int n) { for (int i = 0; i < n; i++) v[i] *= 2; }
"#;

    const PROJECT_MAIN: &str = r#"#include <cstdio>
#include "proj.h"

template <typename T> void fill(T *v, int n) {
#pragma omp target teams distribute parallel for map(from: v[0:n])
  for (int i = 0; i < n; i++) v[i] = i;
}

int main() {
  int n = 100;
  double *a = make<double>(n);
  Grid g{a, n};
  fill(a, n);
  scale(a, n);
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += NB;
  printf("%f\n", geo::dot(a, a, n) + g.at(0));
  delete[] a;
}
"#;

    /// A unit with a preamble walks its local declarations only; the project header's
    /// declarations are found again from the plain parse's record, and the module is a
    /// fresh parse's: after edits, after the header changes on disk, after the include block
    /// changes, and when clang ends the preamble before the project header.
    #[test]
    fn project_headers_found_again_lower_like_fresh_parses() {
        if ensure_libclang().is_err() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let header = dir.path().join("proj.h");
        std::fs::write(&header, PROJECT_HEADER).unwrap();
        let args = vec!["-std=c++17".to_string()];
        let cache = TuCache::new(4);
        let check = |path: &Path, text: &str, what: &str| {
            let fresh = lower_file(path, Some(text), &args).unwrap();
            assert_eq!(fresh.errors().count(), 0, "{what}: {:?}", fresh.diagnostics);
            let cached = lower_file_cached(&cache, path, text, &args).unwrap();
            assert_same(path, what, &cached, &fresh);
            cache.settle();
        };
        let main = dir.path().join("main.cpp");
        std::fs::write(&main, PROJECT_MAIN).unwrap();
        check(&main, PROJECT_MAIN, "the first parse");
        let header_fns = |m: &crate::ir::Module| {
            m.functions
                .iter()
                .filter(|f| f.has_body && !f.in_main_file && !f.in_system_header)
                .count()
        };
        let fresh = lower_file(&main, Some(PROJECT_MAIN), &args).unwrap();
        assert!(header_fns(&fresh) >= 3, "{}", render_module(&fresh));
        for k in 0..2 {
            let text = if k == 0 {
                edited(PROJECT_MAIN)
            } else {
                PROJECT_MAIN.to_string()
            };
            check(&main, &text, "a reparse");
        }
        assert_eq!(cache.stats().replays, 2, "{:?}", cache.stats());
        // The header changes on disk: the record no longer holds.
        std::fs::write(
            &header,
            format!(
                "{PROJECT_HEADER}inline int extra(int x) {{ return x + 1; }}
"
            ),
        )
        .unwrap();
        check(&main, PROJECT_MAIN, "after the header changed");
        check(
            &main,
            &edited(PROJECT_MAIN),
            "a reparse after the header changed",
        );
        // The include block changes.
        let more = format!(
            "#include <cmath>
{PROJECT_MAIN}"
        );
        check(&main, &more, "after the include block changed");
        check(
            &main,
            &edited(&more),
            "a reparse after the include block changed",
        );
        // A conditional block before the project header (clang may end the preamble there).
        let cond = PROJECT_MAIN.replace(
            "#include \"proj.h\"",
            "#ifdef NOT_DEFINED\n#include <cassert>\n#endif\n#include \"proj.h\"",
        );
        let other = dir.path().join("cond.cpp");
        std::fs::write(&other, &cond).unwrap();
        check(
            &other,
            &cond,
            "the first parse of a conditional include block",
        );
        check(
            &other,
            &edited(&cond),
            "a reparse of a conditional include block",
        );
        check(&other, &cond, "a reparse back");
        assert_eq!(cache.stats().failed_reparses, 0);
    }

    /// A store of leading system headers: the first cache's first parse is plain and stores
    /// the PCH in the background; the next cache (a later session) makes its first parse
    /// after it; both give a fresh parse's module, and so do the reparses after it (their
    /// project headers found again from the record the parse after the PCH made). A stored
    /// PCH clang refuses is not used, and leaves the store.
    #[test]
    fn first_parses_after_a_stored_pch_lower_like_fresh_parses() {
        if ensure_libclang().is_err() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("proj.h"), PROJECT_HEADER).unwrap();
        let main = dir.path().join("main.cpp");
        std::fs::write(&main, PROJECT_MAIN).unwrap();
        let store = tempfile::tempdir().unwrap();
        let args = vec!["-std=c++17".to_string()];
        let session = || TuCache::new(2).with_header_store(Some(store.path().to_path_buf()));
        let check = |cache: &TuCache, text: &str, what: &str| {
            let fresh = lower_file(&main, Some(text), &args).unwrap();
            assert_eq!(fresh.errors().count(), 0, "{what}: {:?}", fresh.diagnostics);
            let cached = lower_file_cached(cache, &main, text, &args).unwrap();
            assert_same(&main, what, &cached, &fresh);
            cache.settle();
        };
        let stored = || -> Vec<std::path::PathBuf> {
            std::fs::read_dir(store.path())
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "pch"))
                .collect()
        };

        let first = session();
        check(&first, PROJECT_MAIN, "the first session's first parse");
        assert_eq!(first.stats().after_pch, 0, "nothing stored yet");
        assert_eq!(stored().len(), 1, "the leading headers stored for later");

        let second = session();
        check(&second, PROJECT_MAIN, "a later session's first parse");
        assert_eq!(second.stats().after_pch, 1, "{:?}", second.stats());
        check(&second, &edited(PROJECT_MAIN), "a reparse after it");
        check(&second, PROJECT_MAIN, "a reparse back");
        assert_eq!(second.stats().replays, 2, "{:?}", second.stats());

        // A PCH clang refuses (written over with garbage).
        let pch = stored().pop().unwrap();
        std::fs::write(&pch, b"not a precompiled header").unwrap();
        let third = session();
        check(&third, PROJECT_MAIN, "a first parse after a refused PCH");
        assert_eq!(third.stats().after_pch, 0, "{:?}", third.stats());
        assert_eq!(third.stats().parses, 1, "{:?}", third.stats());
        // It left the store, and a good one was made again in its place.
        let fourth = session();
        check(
            &fourth,
            PROJECT_MAIN,
            "a first parse after the PCH was made again",
        );
        assert_eq!(fourth.stats().after_pch, 1, "{:?}", fourth.stats());
    }

    /// `#if 0` blocks and `#define`s before the first declaration fall into the precompiled
    /// preamble; the skipped range must still hide the pragma inside, and macros must still
    /// expand, after a reparse.
    const PREAMBLE_PREPROCESSING: &str = r#"#include <stdlib.h>
#if 0
#pragma omp target teams distribute parallel for map(tofrom: a[0:N])
#endif
#define N 64
#define SCALE(x) ((x) * 2.0)
#if 0
#include "no_such_header.h"
#pragma omp target enter data map(to: a[0:N])
#endif
#pragma omp declare target
int lookup[N];
#pragma omp end declare target

void scale(double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:N])
  for (int i = 0; i < N; i++)
    a[i] = SCALE(a[i]) + lookup[i];
}
"#;

    #[test]
    fn preprocessing_in_the_preamble_survives_a_reparse() {
        if ensure_libclang().is_err() {
            return;
        }
        let path = Path::new("preamble_probe.c");
        let cache = TuCache::new(2);
        let fresh = lower_file(path, Some(PREAMBLE_PREPROCESSING), &[]).unwrap();
        // Three directives: declare target, end declare target, the kernel (the two inside
        // `#if 0` are skipped), and no error about the header under `#if 0`.
        assert_eq!(fresh.directives.len(), 3, "{}", render_module(&fresh));
        assert_eq!(fresh.errors().count(), 0, "{:?}", fresh.diagnostics);
        let first = lower_file_cached(&cache, path, PREAMBLE_PREPROCESSING, &[]).unwrap();
        assert_same(path, "the first parse", &first, &fresh);
        cache.settle();
        assert_eq!(cache.stats().preambles, 1, "the plain unit replaced");
        // An edit in the body (the preamble is reused), then one in the preamble (rebuilt).
        for text in [
            PREAMBLE_PREPROCESSING.replace("+ lookup[i]", "- lookup[i]"),
            PREAMBLE_PREPROCESSING.replace("#define N 64", "#define N 128"),
            PREAMBLE_PREPROCESSING.to_string(),
        ] {
            let fresh = lower_file(path, Some(&text), &[]).unwrap();
            let cached = lower_file_cached(&cache, path, &text, &[]).unwrap();
            assert_same(path, "a reparse", &cached, &fresh);
            assert_eq!(cached.directives.len(), 3);
            cache.settle();
        }
        // The body's edit reparses; the two edits of the block before the first declaration
        // (where the project headers' record no longer holds) parse plainly.
        assert_eq!(cache.stats().counts(), (3, 1, 0));
    }

    #[test]
    fn new_arguments_parse_anew_and_forget_drops_the_unit() {
        if ensure_libclang().is_err() {
            return;
        }
        let path = Path::new("args_probe.c");
        let cache = TuCache::new(2);
        let text = "int f(int x) { return x + VALUE; }\n";
        let with = |flags: &[String]| lower_file_cached(&cache, path, text, flags).unwrap();
        let a = with(&["-DVALUE=1".to_string()]);
        assert_eq!(a.errors().count(), 0);
        // Without the definition the same text has an error: a reparse with the old
        // arguments would not show it.
        let b = with(&[]);
        assert!(b.errors().count() > 0, "{:?}", b.diagnostics);
        assert_eq!(cache.stats().parses, 2);
        assert_eq!(cache.len(), 1);
        cache.forget(&path.display().to_string());
        assert!(cache.is_empty());
        with(&[]);
        assert_eq!(cache.stats().parses, 3);
    }

    #[test]
    fn the_least_recently_used_unit_goes_first() {
        if ensure_libclang().is_err() {
            return;
        }
        let cache = TuCache::new(2);
        // (Each unit with a preamble in place before the next use: before it, a plain unit
        // is not kept and its next use parses anew.)
        let lower = |name: &str| {
            lower_file_cached(&cache, Path::new(name), "int x;\n", &[]).unwrap();
            cache.settle();
        };
        lower("a.c");
        lower("b.c");
        lower("a.c"); // a reparse: `a.c` is now the most recent
        lower("c.c"); // evicts `b.c`
        assert_eq!(cache.len(), 2);
        lower("a.c"); // still kept: a reparse
        lower("b.c"); // was evicted: a parse
        assert_eq!(cache.stats().counts(), (4, 2, 0));
    }

    /// Units are dropped where the cache is: a thread that never loaded libclang (clang-sys
    /// keeps the library per thread) must still dispose of them without a panic.
    #[test]
    fn a_unit_is_dropped_on_a_thread_that_never_parsed() {
        if ensure_libclang().is_err() {
            return;
        }
        let cache = Arc::new(TuCache::new(2));
        lower_file_cached(&cache, Path::new("drop_probe.c"), "int x;\n", &[]).unwrap();
        let c = cache.clone();
        std::thread::spawn(move || c.forget("drop_probe.c"))
            .join()
            .expect("forget on a fresh thread");
        assert!(cache.is_empty());
        lower_file_cached(&cache, Path::new("drop_probe.c"), "int y;\n", &[]).unwrap();
        std::thread::spawn(move || drop(cache))
            .join()
            .expect("the last handle dropped on a fresh thread");
    }
}
