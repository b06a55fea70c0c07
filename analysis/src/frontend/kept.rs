//! Lowered files kept within a run for their own check.
//!
//! `omplens check` over a tree parses a file for another file's sake (the effect summaries of
//! the functions it defines, the stores of struct members it shows: `project`), and again
//! when its own turn comes. The module lowered the first time is kept here (before anything
//! of other files is attached to it) and the file's own check takes it instead of parsing:
//! the same inputs (path, text, flags) and the same run's shared headers give the same
//! module. Modules of about [`BUDGET`] bytes in all are kept, the oldest dropped first, so
//! memory stays bounded whatever the order of the files.

use crate::ir::Module;
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Bytes of modules kept at most, by [`weight`] (over HeCBench's `*-omp` sources, 239 files
/// are lowered for other files' sake, 153 of them taken by their own check later, and the
/// modules kept at once weigh 101 MB at the most).
pub(super) const BUDGET: usize = 256 << 20;

#[derive(Default)]
pub(super) struct Kept {
    slots: Mutex<Slots>,
    taken: AtomicUsize,
}

#[derive(Default)]
struct Slots {
    kept: VecDeque<Slot>,
    /// The weights of `kept` added up.
    weight: usize,
}

impl Slots {
    /// The place of `path`'s module lowered from the inputs of `key`.
    fn position(&self, path: &Path, key: u64) -> Option<usize> {
        self.kept
            .iter()
            .position(|s| s.key == key && s.path == path)
    }
}

struct Slot {
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

/// The text and flags a module was lowered from (with its path, the slot's identity).
fn key(text: &str, args: &[String]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    args.hash(&mut h);
    h.finish()
}

impl Kept {
    /// The kept module of `path` lowered from `text` with `args`, left for the file's check.
    pub(super) fn get(&self, path: &Path, text: &str, args: &[String]) -> Option<Arc<Module>> {
        let slots = self.slots.lock().ok()?;
        let i = slots.position(path, key(text, args))?;
        Some(slots.kept[i].module.clone())
    }

    /// The kept module of `path` lowered from `text` with `args`, no longer kept (the file's
    /// own check asks for it once).
    pub(super) fn take(&self, path: &Path, text: &str, args: &[String]) -> Option<Arc<Module>> {
        let mut slots = self.slots.lock().ok()?;
        let i = slots.position(path, key(text, args))?;
        self.taken.fetch_add(1, Ordering::Relaxed);
        let slot = slots.kept.remove(i)?;
        slots.weight -= slot.weight;
        Some(slot.module)
    }

    /// Keeps `module`, lowered from `path`'s `text` with `args`.
    pub(super) fn keep(&self, path: &Path, text: &str, args: &[String], module: Arc<Module>) {
        let key = key(text, args);
        let weight = weight(&module);
        if weight > BUDGET {
            return;
        }
        if let Ok(mut slots) = self.slots.lock() {
            if slots.position(path, key).is_some() {
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
                path: path.to_path_buf(),
                key,
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
