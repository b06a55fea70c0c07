//! The lengths of the arrays behind struct members, read from every store the project shows
//! (`semantics::member_lengths`): this file's own, and those of the compile database's other
//! files that mention the record or the member (parsed with their own flags, with the
//! summaries of the functions they call from further files, and cached like the summaries).
//!
//! Without a compile database, only a record defined in this file is judged (its stores are
//! all here, unless another file defines a record of the same name).

use super::{cache, identifiers_of, memory_of, other_files, read_small};
use crate::frontend::SharedHeaders;
use crate::ir::{ExprKind, Module, StmtKind, TypeClass};
use crate::semantics::member_lengths::{self, Evidence};
use std::collections::{BTreeSet, HashSet};
use std::path::Path;
use std::sync::Arc;

/// Sets `module.member_lengths` for the pointer members its kernels' functions read.
/// Files parsed here use the system headers `shared` precompiled for a run, if given.
pub fn attach_member_lengths(module: &mut Module, text: &str, shared: Option<&SharedHeaders>) {
    attach_with(module, text, cache::default_dir().as_deref(), shared)
}

#[cfg(test)]
pub(super) fn attach_with_cache(module: &mut Module, text: &str, cache_dir: Option<&Path>) {
    attach_with(module, text, cache_dir, None)
}

fn attach_with(
    module: &mut Module,
    text: &str,
    cache_dir: Option<&Path>,
    shared: Option<&SharedHeaders>,
) {
    let wanted = wanted(module);
    if wanted.is_empty() {
        return;
    }
    let local = member_lengths::evidence(module);
    let names: HashSet<&str> = wanted
        .iter()
        .flat_map(|(r, f)| [r.as_str(), f.as_str()])
        .collect();
    // None: no database; Some(None): a file that mentions them could not be read.
    let others: Option<Option<Vec<Arc<Evidence>>>> =
        other_files(module).map(|(resolver, files)| {
            let mut out = Vec::new();
            for file in files {
                crate::budget::tick("reading the project's other files");
                let Some(ids) = identifiers_of(&file) else {
                    continue;
                };
                if !names.iter().any(|n| ids.contains(*n)) {
                    continue;
                }
                let text = read_small(&file)?;
                let flags = resolver.flags_for(&file, &[]).ok()?;
                if flags.skip.is_some() {
                    continue;
                }
                out.push(evidence_of(&file, &text, &flags.args, cache_dir, shared)?);
            }
            Some(out)
        });
    for (record, field) in wanted {
        let mut all: Vec<&Evidence> = vec![&local];
        match &others {
            Some(Some(files)) => all.extend(files.iter().map(|e| e.as_ref())),
            Some(None) => continue,
            None if !defines_record(text, &record) => continue,
            None => {}
        }
        if let Some(found) = member_lengths::infer(&all, &record, &field) {
            module.member_lengths.insert((record, field), found);
        }
    }
}

/// (record, pointer member) copied into a local pointer (`const int *c = d.counts;`) in a
/// function that launches kernels: what `semantics::member_lengths::copied_member_length`
/// may ask for.
fn wanted(module: &Module) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for f in module.functions.iter() {
        if !f.has_body || crate::ir::kernel_stmts(module, f).is_empty() {
            continue;
        }
        for st in f.stmts.iter() {
            let StmtKind::Decl(ds) = &st.kind else {
                continue;
            };
            for (_, init) in ds {
                let Some(mut e) = *init else { continue };
                while let ExprKind::Cast(x) = f.expr(e).kind {
                    e = x;
                }
                let ExprKind::Member {
                    base: Some(b),
                    field,
                    arrow,
                } = &f.expr(e).kind
                else {
                    continue;
                };
                if !matches!(
                    f.expr(e).class,
                    TypeClass::Pointer | TypeClass::PointerToConst
                ) {
                    continue;
                }
                let ExprKind::Var(v) = f.expr(*b).kind else {
                    continue;
                };
                if let Some(r) = member_lengths::record_of(module, v, *arrow) {
                    out.insert((r, field.clone()));
                }
            }
        }
    }
    out
}

/// Whether `text` defines record `name` (`struct name {`, or `} name;` ending a typedef).
fn defines_record(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let (before, after) = (&text[..i], &text[i + name.len()..]);
        if before.ends_with(ident) || after.starts_with(ident) {
            return false;
        }
        let (before, after) = (before.trim_end(), after.trim_start());
        let tagged = ["struct", "class", "union"]
            .iter()
            .any(|k| before.strip_suffix(k).is_some_and(|b| !b.ends_with(ident)));
        (tagged && after.starts_with('{')) || (before.ends_with('}') && after.starts_with(';'))
    })
}

/// What `file` shows of member stores: from this process's memory, the disk cache, or a
/// parse. None when it does not parse.
fn evidence_of(
    file: &Path,
    text: &str,
    args: &[String],
    cache_dir: Option<&Path>,
    shared: Option<&SharedHeaders>,
) -> Option<Arc<Evidence>> {
    memory_of(file, text, args, cache_dir, "-members", || {
        let lowered = crate::frontend::lower_file_for_project(shared, file, text, args).ok()?;
        let mut module = Arc::unwrap_or_clone(lowered);
        super::attach_with(&mut module, cache_dir, shared);
        Some(member_lengths::evidence(&module))
    })
}
