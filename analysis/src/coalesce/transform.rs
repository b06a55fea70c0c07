//! Collapse and interchange (IPDA §7): which reorderings of the perfect chain under a parallel
//! loop are safe, which are profitable (fewer memory requests per warp), and the text edits
//! that perform them.
//!
//! Safety of merging loops into the parallel iteration space: the loops are perfectly nested
//! (by construction of the chain), canonical, with bounds that do not change in the nest and
//! do not depend on each other's IVs, nothing in the nest has effects the analysis cannot see,
//! no shared scalar is written, and the IPDA test finds no dependence between iterations that
//! would now run on different threads. An interchange moves one loop of the chain up to just
//! under the parallel loops; it is legal when that loop carries no dependence at all (it is
//! then `=` in every dependence, so the others keep their order), which the same test shows.

use super::dependence;
use super::stride::fixed;
use super::sym::{assigned_vars, Nest};
use crate::ir::{Function, Module, Span, StmtId, StmtKind};
use crate::semantics::constants::Values;
use crate::text::TextEdit;

/// A reshaping of the chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reshape {
    /// `collapse(depth)` over the first `depth` loops of the chain.
    Collapse { depth: usize },
    /// Move the chain's loop at index `moved` to index `depth - 1`, then `collapse(depth)`.
    Interchange { moved: usize, depth: usize },
}

impl Reshape {
    pub fn depth(&self) -> usize {
        match self {
            Reshape::Collapse { depth } | Reshape::Interchange { depth, .. } => *depth,
        }
    }

    /// The chain's loops in their new order.
    pub fn order<T: Clone>(&self, chain: &[T]) -> Vec<T> {
        match *self {
            Reshape::Collapse { .. } => chain.to_vec(),
            Reshape::Interchange { moved, depth } => {
                let mut v = chain.to_vec();
                let l = v.remove(moved);
                v.insert(depth - 1, l);
                v
            }
        }
    }
}

/// Checks that the chain's loops `involved` may be reordered or merged, and that no
/// dependence links iterations of the loops in `par`.
#[allow(clippy::too_many_arguments)]
pub fn safety(
    module: &Module,
    source: &str,
    func: &Function,
    nest: &Nest,
    involved: &[StmtId],
    par: &[StmtId],
    consts: &Values,
) -> Result<(), String> {
    if let Some((_, why)) = nest.opaque.first() {
        return Err(format!("the nest has {why}"));
    }
    if let Some((v, _)) = nest.shared_writes.first() {
        return Err(format!(
            "`{}` is declared outside the nest and written in it",
            module.var(*v).name
        ));
    }
    let ivs: Vec<String> = involved
        .iter()
        .filter_map(|l| nest.loops.get(l).map(|i| i.atom.clone()))
        .collect();
    for l in involved {
        let Some(info) = nest.loops.get(l) else {
            return Err("a loop of the nest is not in canonical form".into());
        };
        for b in [&info.min, &info.max, &info.first] {
            let Some(b) = b else {
                return Err(format!(
                    "the bounds of the `{}` loop are not symbolic",
                    info.atom
                ));
            };
            if !fixed(nest, b) {
                let other = b.atoms().into_iter().find(|a| ivs.iter().any(|x| x == a));
                return Err(match other {
                    Some(o) => format!(
                        "the bounds of the `{}` loop depend on `{o}` (not rectangular)",
                        info.atom
                    ),
                    None => format!("the bounds of the `{}` loop change in the nest", info.atom),
                });
            }
        }
        let StmtKind::For(f) = &func.stmt(*l).kind else {
            return Err("not a `for` loop".into());
        };
        if assigned_vars(func, f.body).contains(&info.iv) {
            return Err(format!(
                "the body assigns the induction variable `{}`",
                info.atom
            ));
        }
    }
    dependence::independent(module, source, func, nest, par, consts)
}

/// The edits: the chain's headers rewritten in the new order and the directive's `collapse`
/// set to the new depth.
pub fn edits(
    source: &str,
    nest: &Nest,
    chain: &[StmtId],
    reshape: &Reshape,
    directive: Span,
    collapse_clause: Option<Span>,
) -> Option<Vec<TextEdit>> {
    let mut out = Vec::new();
    if let Reshape::Interchange { moved, depth } = *reshape {
        let new = reshape.order(chain);
        for k in depth - 1..=moved {
            let at = nest.loops.get(&chain[k])?.header;
            let from = nest.loops.get(&new[k])?.header;
            let text = source.get(from.start as usize..from.end as usize)?;
            if !text.starts_with("for") {
                return None;
            }
            out.push(TextEdit {
                start: at.start,
                end: at.end,
                text: text.to_string(),
            });
        }
    }
    let clause = format!("collapse({})", reshape.depth());
    out.push(match collapse_clause {
        Some(span) => TextEdit {
            start: span.start,
            end: span.end,
            text: clause,
        },
        None => TextEdit {
            start: directive.end,
            end: directive.end,
            text: format!(" {clause}"),
        },
    });
    out.sort_by_key(|e| e.start);
    Some(out)
}
