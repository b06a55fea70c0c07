//! The project-header declarations of a unit's preamble, found again by position.
//!
//! An editor's unit keeps a precompiled preamble (its leading `#include` block). A walk of
//! such a unit's top level deserialises every declaration of the preamble, system headers
//! included (on LULESH about 14,500, half of lowering's time), only for lowering to skip all
//! but the project's own. A unit made to walk its local declarations only
//! ([`super::libclang::parse_with_preamble`]) skips that, and lowering visits the project
//! headers' top-level declarations from a record instead: where each is (file and offset),
//! its kind and name, taken by a walk of a unit that has them all (the editor's first,
//! plain parse), in that walk's order, so the module comes out the same.
//!
//! The record holds while the main file's text before its first declaration (its include
//! block) and every file the unit includes are unchanged (size and modification time); each
//! declaration found at a recorded position must have the recorded kind and name, and no
//! recorded declaration may come up again in the local walk. Otherwise the unit is lowered
//! from a plain parse and the record is made again ([`super::TuCache`]).

use super::libclang::{Cursor, TranslationUnit};
use super::macros::MacroAt;
use clang_sys::CXCursorKind;
use std::collections::HashSet;
use std::time::SystemTime;

/// One top-level declaration of a project header, as a walk met it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct DeclAt {
    pub file: String,
    /// The offset of its location (its name): what identifies it.
    pub offset: u32,
    /// The offset its extent starts at (where libclang finds a template, whose name is
    /// the templated declaration's too).
    pub start: u32,
    pub kind: CXCursorKind,
    pub name: String,
}

impl DeclAt {
    pub fn of(c: Cursor<'_>) -> Option<DeclAt> {
        let (file, offset) = c.file_location()?;
        let (start_file, start) = c.file_start()?;
        (start_file == file).then(|| DeclAt {
            file,
            offset,
            start,
            kind: c.kind(),
            name: c.spelling(),
        })
    }

    /// This declaration in `tu`, if libclang finds it at its place (kind and name as
    /// recorded).
    pub fn find<'tu>(&self, tu: &'tu TranslationUnit) -> Option<Cursor<'tu>> {
        [self.start, self.offset]
            .into_iter()
            .filter_map(|at| tu.cursor_at(&self.file, at))
            .find(|c| self.is(*c) && c.file_location().is_some_and(|l| l.1 == self.offset))
    }

    /// Whether `c` is this declaration: same kind and name, at the top level.
    pub fn is(&self, c: Cursor<'_>) -> bool {
        c.kind() == self.kind
            && c.spelling() == self.name
            && c.semantic_parent()
                .is_some_and(|p| p.kind() == clang_sys::CXCursor_TranslationUnit)
    }
}

/// What a walk of a whole unit met in the project's headers before the main file's first
/// declaration, and what it depends on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HeaderDecls {
    /// The main file's text before its first declaration.
    pub prefix: String,
    /// Every file the unit included, with its size and modification time then.
    pub files: Vec<(String, Option<(u64, SystemTime)>)>,
    /// The declarations, in the walk's order.
    pub decls: Vec<DeclAt>,
    /// The macro definitions outside system headers the walk met, in its order (a unit
    /// that walks only its local declarations meets only those after its preamble).
    pub macros: Vec<MacroAt>,
}

impl HeaderDecls {
    pub fn new(
        prefix: &str,
        files: Vec<String>,
        decls: Vec<DeclAt>,
        macros: Vec<MacroAt>,
    ) -> HeaderDecls {
        HeaderDecls {
            prefix: prefix.to_string(),
            files: files
                .into_iter()
                .map(|f| {
                    let stamp = stamp(&f);
                    (f, stamp)
                })
                .collect(),
            decls,
            macros,
        }
    }

    /// Every macro definition a walk of the whole unit meets, given those of a walk of its
    /// local declarations (`local`): the record's that `local` lacks, then `local`. None
    /// when the record's that `local` has are not its last ones.
    pub fn macros_before(&self, local: Vec<MacroAt>) -> Option<Vec<MacroAt>> {
        split_before(&self.macros, local, |m| m.clone())
    }

    /// Whether the record still describes a unit of `text` (see the module's notes).
    pub fn holds_for(&self, text: &str) -> bool {
        text.starts_with(&self.prefix)
            && self
                .files
                .iter()
                .all(|(f, was)| was.is_some() && stamp(f) == *was)
    }
}

/// `recorded`'s elements before the first that `local` holds (by `key`), then `local`; None
/// unless every element of `recorded` from that one on is in `local`.
pub(super) fn split_before<T: Clone, K: std::hash::Hash + Eq>(
    recorded: &[T],
    local: Vec<T>,
    key: impl Fn(&T) -> K,
) -> Option<Vec<T>> {
    let here: HashSet<K> = local.iter().map(&key).collect();
    let mut out = before_local(recorded, &here, key)?.to_vec();
    out.extend(local);
    Some(out)
}

/// The part of `recorded` a unit walking its local declarations does not meet: the elements
/// before the first whose key `local` holds. None unless every element from that one on is
/// in `local` (those must be the record's tail).
pub(super) fn before_local<'r, T, K: std::hash::Hash + Eq>(
    recorded: &'r [T],
    local: &HashSet<K>,
    key: impl Fn(&T) -> K,
) -> Option<&'r [T]> {
    let split = recorded
        .iter()
        .position(|r| local.contains(&key(r)))
        .unwrap_or(recorded.len());
    let (before, after) = recorded.split_at(split);
    after
        .iter()
        .all(|r| local.contains(&key(r)))
        .then_some(before)
}

fn stamp(path: &str) -> Option<(u64, SystemTime)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

#[cfg(test)]
mod tests {
    use super::split_before;

    #[test]
    fn the_record_before_the_local_walk_and_only_as_its_tail() {
        let id = |x: &u32| *x;
        // The walk met 1..=5; a unit that walks locally meets 4, 5 and 6 (added since).
        assert_eq!(
            split_before(&[1, 2, 3, 4, 5], vec![4, 5, 6], id),
            Some(vec![1, 2, 3, 4, 5, 6])
        );
        assert_eq!(split_before(&[1, 2], vec![7], id), Some(vec![1, 2, 7]));
        assert_eq!(split_before(&[1, 2], vec![1, 2], id), Some(vec![1, 2]));
        // A recorded element met locally before one that is not: the record does not
        // describe this unit.
        assert_eq!(split_before(&[1, 2, 3], vec![2], id), None);
    }
}
