//! OMP204: data copied to the device that the device overwrites or never reads.

use super::common::{cost, facts, finding};
use super::Context;
use crate::check::env::{CopyKind, FactKind};
use crate::check::{fixes, Finding};
use crate::pragma::MapType;

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for f in facts(cx, |f| matches!(f.kind, FactKind::UnusedCopyIn { .. })) {
        let FactKind::UnusedCopyIn { copy } = f.kind else {
            continue;
        };
        let c = &cx.facts.copies[copy];
        if c.implicit || !seen.insert(c.item) {
            continue;
        }
        // A reduction combines with the value copied in; private copies are other clauses'.
        let items = crate::check::env::items::directive_items(cx.module, c.dir, cx.source);
        if items.other.contains(&c.object) {
            continue;
        }
        // Reductions write through their own clause; sections moved by updates elsewhere
        // make the per-variable view too coarse to call the copy useless.
        if partly_moved(cx, c) {
            continue;
        }
        // Every copy made at this item must be unused.
        if cx
            .facts
            .copies
            .iter()
            .any(|o| o.item == c.item && o.to_device && o.consumed)
        {
            continue;
        }
        let mut x = finding(
            "OMP204",
            true,
            c.item,
            format!(
                "`{}` is copied to the device ({}) but no kernel reads that copy before it is overwritten or unmapped",
                c.item_text,
                cost(c.bytes, None)
            ),
        );
        x.bytes = c.bytes;
        if c.kind == CopyKind::Entry {
            let to = match c.map_type {
                Some(MapType::To) => Some("alloc"),
                Some(MapType::ToFrom) => Some("from"),
                _ => None,
            };
            if let (Some(t), Some(m)) =
                (to, cx.facts.mappings.iter().find(|m| m.item.span == c.item))
            {
                let dspan = cx.module.directive(m.dir).directive.span;
                if let Some(edits) = fixes::change_map_type(
                    cx.source,
                    m.item.clause,
                    m.item.clause_items,
                    m.item.span,
                    &m.item.text,
                    dspan,
                    t,
                ) {
                    x.fixes = fixes::fix(format!("map `{}` with `{t}`", m.item.text), edits);
                }
            }
        }
        out.push(x);
    }
    out
}

fn partly_moved(cx: &Context, c: &crate::check::env::Copy) -> bool {
    let items = crate::check::env::items::directive_items(cx.module, c.dir, cx.source);
    items.other.contains(&c.object)
        || cx.facts.copies.iter().any(|o| {
            o.func == c.func
                && o.object == c.object
                && o.kind == CopyKind::Update
                && o.item_text.contains('[')
        })
}
