//! Lowered files kept within a run for their own check.
//!
//! `omplens check` over a tree parses a file for another file's sake (the effect summaries of
//! the functions it defines, the stores of struct members it shows: `project`), and again
//! when its own turn comes. The module lowered the first time is kept here (before anything
//! of other files is attached to it) and the file's own check takes it instead of parsing:
//! the same inputs (path, text, flags) and the same run's shared headers give the same
//! module. The other way round too: a file checked before a file that reads it keeps its
//! module for that one when the run has such a file ([`Kept::for_run`]). Modules of about
//! [`BUDGET`] bytes in all are kept, the oldest dropped first, so memory stays bounded
//! whatever the order of the files.
//!
//! A file is known by its absolute path: the project reads the compile database's (absolute)
//! paths, the check names the file as the user did (relative to the current directory). A
//! module taken under another spelling is given that spelling, with the headers found next
//! to it renamed as libclang would have named them ([`respell`]).
//!
//! Files are checked several at a time, so a file may be asked for by a check while another
//! thread lowers it for the project, or by two threads for the project: the later asker
//! waits for the lowering under way ([`Flight`]) instead of parsing the file again.

use crate::ir::{HeaderSource, Module};
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Bytes of modules kept at most, by [`weight`] (over HeCBench's `*-omp` sources, 242 files
/// are lowered for other files' sake, 160 of them taken by their own check later; at half
/// this budget, evictions cost about 40 parses more).
pub(super) const BUDGET: usize = 256 << 20;

#[derive(Default)]
pub(super) struct Kept {
    slots: Mutex<Slots>,
    /// Lowerings under way, by file identity and inputs. Locked before `slots` when both are.
    in_flight: Mutex<HashMap<(PathBuf, u64), Arc<Flight>>>,
    /// The files of the run that another file of the run may read (see [`Kept::for_run`]):
    /// their own check keeps its module too.
    wanted: HashSet<PathBuf>,
    taken: AtomicUsize,
}

/// A lowering under way: its module when done (None when it failed).
#[derive(Default)]
struct Flight {
    result: Mutex<Option<Option<Arc<Module>>>>,
    done: Condvar,
}

impl Flight {
    fn wait(&self) -> Option<Arc<Module>> {
        let mut r = self.result.lock().ok()?;
        while r.is_none() {
            r = self.done.wait(r).ok()?;
        }
        r.clone().flatten()
    }
}

/// The lowering a thread does for the others: ends its flight when dropped (as failed if
/// [`Pilot::land`] was not called, e.g. on a panic).
struct Pilot<'a> {
    kept: &'a Kept,
    at: (PathBuf, u64),
    flight: Arc<Flight>,
}

impl Pilot<'_> {
    fn land(self, module: Option<Arc<Module>>) {
        if let Ok(mut r) = self.flight.result.lock() {
            *r = Some(module);
        }
    }
}

impl Drop for Pilot<'_> {
    fn drop(&mut self) {
        if let Ok(mut r) = self.flight.result.lock() {
            r.get_or_insert(None);
        }
        self.flight.done.notify_all();
        if let Ok(mut f) = self.kept.in_flight.lock() {
            f.remove(&self.at);
        }
    }
}

/// What an asker does: use a kept module, wait for a lowering under way, or lower.
enum Turn<'a> {
    Kept(Arc<Module>),
    Wait(Arc<Flight>),
    Lower(Pilot<'a>),
    /// Lower, without telling the others (a lock was poisoned by a panic).
    Alone,
}

#[derive(Default)]
struct Slots {
    kept: VecDeque<Slot>,
    /// The weights of `kept` added up.
    weight: usize,
}

impl Slots {
    /// The place of the module of the file of `identity` lowered from the inputs of `key`.
    fn position(&self, identity: &Path, key: u64) -> Option<usize> {
        self.kept
            .iter()
            .position(|s| s.key == key && s.path == identity)
    }

    /// Takes the module at `i` out.
    fn remove(&mut self, i: usize) -> Option<Arc<Module>> {
        let slot = self.kept.remove(i)?;
        self.weight -= slot.weight;
        Some(slot.module)
    }
}

struct Slot {
    /// The file's [`identity`].
    path: PathBuf,
    key: u64,
    module: Arc<Module>,
    weight: usize,
}

/// About the bytes `module` holds: its statements, expressions, variables and directives.
fn weight(module: &Module) -> usize {
    use std::mem::size_of;
    let body: usize = module
        .functions
        .iter()
        .map(|f| {
            f.stmts.len() * size_of::<crate::ir::Stmt>() * 2
                + f.exprs.len() * size_of::<crate::ir::Expr>() * 2
        })
        .sum();
    body + module.vars.len() * size_of::<crate::ir::Var>() * 2
        + module.directives.len() * 1024
        + module.source_len as usize
}

/// A file's name whatever its spelling: absolute, `.` and `..` resolved lexically (as the
/// compile database's paths are).
fn identity(path: &Path) -> PathBuf {
    super::flags::lexical(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// `module`, lowered from its file under another spelling, as if lowered from `path`: its
/// path, and the names of the headers libclang found in the file's directory (or below),
/// which it spells from the main file's (`sub/x.h` for `sub/main.c`, `./x.h` for `main.c`).
fn respell(mut module: Module, path: &Path) -> Module {
    let spelled = path.display().to_string();
    if module.path == spelled {
        return module;
    }
    // (On the text, as libclang does: `Path::parent` would drop a `.` component.)
    let dir_of = |p: &str| match p.rfind('/') {
        Some(i) => p[..=i].to_string(),
        None => "./".to_string(),
    };
    let old_dir = dir_of(&module.path);
    let new_dir = dir_of(&spelled);
    for h in &mut module.headers {
        if let Some(rest) = h.path.strip_prefix(&old_dir) {
            *h = Arc::new(HeaderSource {
                path: format!("{new_dir}{rest}"),
                ..HeaderSource::clone(h)
            });
        }
    }
    module.path = spelled;
    module
}

/// The text and flags a module was lowered from (with its path, the slot's identity).
fn key(text: &str, args: &[String]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    args.hash(&mut h);
    h.finish()
}

impl Kept {
    /// For a run over `files`. The project reads, for a file, the files of the compile
    /// database in its directory and below: a file is wanted by another of the run when the
    /// directory of another is its own or above it.
    pub(super) fn for_run<'a>(files: impl IntoIterator<Item = &'a Path>) -> Kept {
        let files: Vec<PathBuf> = files.into_iter().map(identity).collect();
        let mut per_dir: HashMap<&Path, usize> = HashMap::new();
        for f in &files {
            if let Some(d) = f.parent() {
                *per_dir.entry(d).or_default() += 1;
            }
        }
        let wanted = files
            .iter()
            .filter(|f| {
                let own = f.parent();
                own.into_iter()
                    .flat_map(Path::ancestors)
                    .any(|d| per_dir.get(d).copied().unwrap_or(0) > usize::from(Some(d) == own))
            })
            .cloned()
            .collect();
        Kept {
            wanted,
            ..Kept::default()
        }
    }

    /// The module of `path` lowered from `text` with `args` by `lower`, for another file's
    /// sake: kept for the file's own check, or the one kept or being lowered already.
    pub(super) fn lower_for_project<E>(
        &self,
        path: &Path,
        text: &str,
        args: &[String],
        lower: impl FnOnce() -> Result<Module, E>,
    ) -> Result<Arc<Module>, E> {
        // (A module lowered by the file's own check has the name the check gave it.)
        let spelled = |m: Arc<Module>| {
            if m.path == path.display().to_string() {
                m
            } else {
                Arc::new(respell(Module::clone(&m), path))
            }
        };
        match self.turn(path, key(text, args), false) {
            Turn::Kept(m) => return Ok(spelled(m)),
            Turn::Wait(f) => {
                if let Some(m) = f.wait() {
                    return Ok(spelled(m));
                }
            }
            Turn::Lower(pilot) => {
                let module = lower().map(Arc::new);
                if let Ok(m) = &module {
                    self.keep_at(&pilot.at, m.clone());
                }
                pilot.land(module.as_ref().ok().cloned());
                return module;
            }
            Turn::Alone => {}
        }
        lower().map(Arc::new)
    }

    /// The module of `path` lowered from `text` with `args` by `lower`, for the file's own
    /// check: the one kept (no longer kept: a check asks once) or being lowered for the
    /// project, spelled as `path` is; else lowered here.
    pub(super) fn lower_for_check<E>(
        &self,
        path: &Path,
        text: &str,
        args: &[String],
        lower: impl FnOnce() -> Result<Module, E>,
    ) -> Result<Module, E> {
        let key = key(text, args);
        let found = match self.turn(path, key, true) {
            Turn::Kept(m) => Some(m),
            // Kept by the project's lowering when it ended: taken from there.
            Turn::Wait(f) => f.wait().map(|m| self.take_at(path, key).unwrap_or(m)),
            Turn::Lower(pilot) => {
                let module = lower().map(Arc::new);
                if let Ok(m) = &module {
                    // Kept too when a file checked later may read this one.
                    if self.wanted.contains(&pilot.at.0) {
                        self.keep_at(&pilot.at, m.clone());
                    }
                }
                pilot.land(module.as_ref().ok().cloned());
                return module.map(Arc::unwrap_or_clone);
            }
            Turn::Alone => None,
        };
        match found {
            Some(m) => {
                self.taken.fetch_add(1, Ordering::Relaxed);
                Ok(respell(Arc::unwrap_or_clone(m), path))
            }
            None => lower(),
        }
    }

    /// What an asker for `path`'s module from the inputs of `key` does; `take`: a kept one
    /// is taken out. (The flights are locked first, so that a flight that ends after this
    /// looked for it has kept its module before it leaves the flights.)
    fn turn(&self, path: &Path, key: u64, take: bool) -> Turn<'_> {
        let at = (identity(path), key);
        let Ok(mut flights) = self.in_flight.lock() else {
            return Turn::Alone;
        };
        if let Some(f) = flights.get(&at) {
            return Turn::Wait(f.clone());
        }
        if let Ok(mut slots) = self.slots.lock() {
            if let Some(i) = slots.position(&at.0, key) {
                let m = if take {
                    slots.remove(i)
                } else {
                    Some(slots.kept[i].module.clone())
                };
                if let Some(m) = m {
                    return Turn::Kept(m);
                }
            }
        }
        let flight = Arc::new(Flight::default());
        flights.insert(at.clone(), flight.clone());
        Turn::Lower(Pilot {
            kept: self,
            at,
            flight,
        })
    }

    /// The kept module of `path` from the inputs of `key`, taken out.
    fn take_at(&self, path: &Path, key: u64) -> Option<Arc<Module>> {
        let mut slots = self.slots.lock().ok()?;
        let i = slots.position(&identity(path), key)?;
        slots.remove(i)
    }

    /// The kept module of `path` lowered from `text` with `args`, left kept.
    #[cfg(test)]
    fn get(&self, path: &Path, text: &str, args: &[String]) -> Option<Arc<Module>> {
        let slots = self.slots.lock().ok()?;
        let i = slots.position(&identity(path), key(text, args))?;
        Some(slots.kept[i].module.clone())
    }

    /// The kept module of `path` lowered from `text` with `args`, no longer kept, spelled as
    /// `path` is.
    #[cfg(test)]
    fn take(&self, path: &Path, text: &str, args: &[String]) -> Option<Module> {
        let m = self.take_at(path, key(text, args))?;
        self.taken.fetch_add(1, Ordering::Relaxed);
        Some(respell(Arc::unwrap_or_clone(m), path))
    }

    /// Keeps `module`, lowered from `path`'s `text` with `args`.
    #[cfg(test)]
    fn keep(&self, path: &Path, text: &str, args: &[String], module: Arc<Module>) {
        self.keep_at(&(identity(path), key(text, args)), module);
    }

    /// Keeps `module`, lowered from the inputs of `key` for the file of `identity`.
    fn keep_at(&self, (identity, key): &(PathBuf, u64), module: Arc<Module>) {
        let weight = weight(&module);
        if weight > BUDGET {
            return;
        }
        if let Ok(mut slots) = self.slots.lock() {
            if slots.position(identity, *key).is_some() {
                return;
            }
            while slots.weight + weight > BUDGET {
                let Some(old) = slots.kept.pop_front() else {
                    break;
                };
                slots.weight -= old.weight;
            }
            slots.weight += weight;
            slots.kept.push_back(Slot {
                path: identity.clone(),
                key: *key,
                module,
                weight,
            });
        }
    }

    /// Checks that found their module kept.
    pub(super) fn taken(&self) -> usize {
        self.taken.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(path: &str) -> Arc<Module> {
        Arc::new(Module {
            path: path.to_string(),
            ..Module::default()
        })
    }

    #[test]
    fn a_kept_module_is_found_by_its_inputs_and_taken_once() {
        let kept = Kept::default();
        let args = vec!["-DN=4".to_string()];
        kept.keep(Path::new("a.c"), "int x;", &args, module("a.c"));
        assert!(kept.get(Path::new("a.c"), "int x;", &args).is_some());
        // Another text, other flags, another path: not the same lowering.
        assert!(kept.get(Path::new("a.c"), "int y;", &args).is_none());
        assert!(kept.get(Path::new("a.c"), "int x;", &[]).is_none());
        assert!(kept.get(Path::new("b.c"), "int x;", &args).is_none());
        assert!(kept.take(Path::new("a.c"), "int x;", &args).is_some());
        assert!(kept.take(Path::new("a.c"), "int x;", &args).is_none());
        assert_eq!(kept.taken(), 1);
    }

    /// The project lowers a file under the compile database's absolute path; `check` names it
    /// relative to the current directory (found with `-p`, or under a named directory).
    #[test]
    fn a_module_kept_under_its_absolute_path_is_taken_under_a_relative_one() {
        let kept = Kept::default();
        let cwd = std::env::current_dir().unwrap();
        let absolute = cwd.join("src/app/main.c");
        let header = |p: &str| {
            Arc::new(HeaderSource {
                path: p.to_string(),
                text: String::new(),
                lines: Default::default(),
                included_at: None,
            })
        };
        let lowered = Module {
            path: absolute.display().to_string(),
            headers: vec![
                header(&cwd.join("src/app/kernels/k.h").display().to_string()),
                header("/opt/other/x.h"),
            ],
            ..Module::default()
        };
        kept.keep(&absolute, "int x;", &[], Arc::new(lowered.clone()));
        kept.keep(
            Path::new("/elsewhere/main.c"),
            "int x;",
            &[],
            Arc::new(lowered),
        );
        let m = kept
            .take(Path::new("src/app/./main.c"), "int x;", &[])
            .unwrap();
        assert_eq!(m.path, "src/app/./main.c");
        let names: Vec<&str> = m.headers.iter().map(|h| h.path.as_str()).collect();
        assert_eq!(names, ["src/app/./kernels/k.h", "/opt/other/x.h"]);
        // A file in the current directory: libclang names its neighbours `./k.h`.
        kept.keep(
            &cwd.join("main.c"),
            "",
            &[],
            module(&cwd.join("main.c").display().to_string()),
        );
        assert_eq!(
            kept.take(Path::new("main.c"), "", &[]).unwrap().path,
            "main.c"
        );
        assert_eq!(kept.taken(), 2);
    }

    /// Two threads check files at once: one lowers `b.c` for `a.c`'s sake while `b.c`'s own
    /// check starts, which waits for that lowering and takes it; and the other way round.
    #[test]
    fn a_file_being_lowered_is_waited_for_not_parsed_again() {
        use std::sync::atomic::AtomicUsize;
        use std::time::Duration;
        let kept = Kept::default();
        let lowerings = AtomicUsize::new(0);
        let slow = |p: &str| {
            let p = p.to_string();
            let lowerings = &lowerings;
            move || {
                lowerings.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(200));
                Ok::<Module, ()>(Module {
                    path: p,
                    ..Module::default()
                })
            }
        };
        let b = std::env::current_dir().unwrap().join("b.c");
        std::thread::scope(|s| {
            let project = s.spawn(|| {
                kept.lower_for_project(&b, "int b;", &[], slow(&b.display().to_string()))
            });
            std::thread::sleep(Duration::from_millis(50));
            let check = kept.lower_for_check(Path::new("b.c"), "int b;", &[], slow("b.c"));
            assert_eq!(check.unwrap().path, "b.c");
            assert!(project.join().unwrap().is_ok());
        });
        assert_eq!(lowerings.load(Ordering::SeqCst), 1);
        assert_eq!(kept.taken(), 1);
        // Taken: not kept any more, and a later check lowers again.
        assert!(kept.get(&b, "int b;", &[]).is_none());

        let c = std::env::current_dir().unwrap().join("c.c");
        std::thread::scope(|s| {
            let check = s.spawn(|| kept.lower_for_check(Path::new("c.c"), "", &[], slow("c.c")));
            std::thread::sleep(Duration::from_millis(50));
            let project = kept.lower_for_project(&c, "", &[], slow(&c.display().to_string()));
            assert_eq!(project.unwrap().path, c.display().to_string());
            assert_eq!(check.join().unwrap().unwrap().path, "c.c");
        });
        assert_eq!(lowerings.load(Ordering::SeqCst), 2);
        // A failed lowering is no one's: the waiter lowers itself.
        let failing = || {
            std::thread::sleep(Duration::from_millis(200));
            Err::<Module, ()>(())
        };
        std::thread::scope(|s| {
            let project = s.spawn(|| kept.lower_for_project(&b, "x", &[], failing));
            std::thread::sleep(Duration::from_millis(50));
            assert!(kept.lower_for_check(&b, "x", &[], slow("b.c")).is_ok());
            assert!(project.join().unwrap().is_err());
        });
        assert_eq!(lowerings.load(Ordering::SeqCst), 3);
    }

    /// A file reads the files of its directory and below: those are the ones a check keeps.
    #[test]
    fn a_run_keeps_the_files_another_file_of_it_may_read() {
        let files = [
            "/p/a/main.c",
            "/p/a/k.c",
            "/p/b/main.c",
            "/p/c/main.c",
            "/p/c/sub/x.c",
        ];
        let kept = Kept::for_run(files.iter().map(Path::new));
        let mut wanted: Vec<_> = kept
            .wanted
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        wanted.sort();
        assert_eq!(wanted, ["/p/a/k.c", "/p/a/main.c", "/p/c/sub/x.c"]);
    }

    #[test]
    fn the_oldest_modules_go_first_past_the_budget() {
        let kept = Kept::default();
        // Modules of a quarter of the budget each: the fifth drops the first.
        let big = |p: &str| {
            Arc::new(Module {
                path: p.to_string(),
                source_len: (BUDGET / 4) as u32,
                ..Module::default()
            })
        };
        for i in 0..5 {
            let p = format!("f{i}.c");
            kept.keep(Path::new(&p), "", &[], big(&p));
        }
        assert!(kept.get(Path::new("f0.c"), "", &[]).is_none());
        assert!(kept.get(Path::new("f1.c"), "", &[]).is_some());
        assert!(kept.get(Path::new("f4.c"), "", &[]).is_some());
        // Taking one makes room again.
        assert!(kept.take(Path::new("f1.c"), "", &[]).is_some());
        kept.keep(Path::new("g.c"), "", &[], big("g.c"));
        assert!(kept.get(Path::new("f2.c"), "", &[]).is_some());
    }
}
