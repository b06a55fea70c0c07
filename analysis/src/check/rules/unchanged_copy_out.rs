//! OMP205: data copied back to the host that the device never wrote.

use super::common::{cost, facts, finding};
use super::Context;
use crate::check::env::{CopyKind, FactKind};
use crate::check::{fixes, Finding};
use crate::pragma::MapType;

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for f in facts(cx, |f| matches!(f.kind, FactKind::UnchangedCopyOut { .. })) {
        let FactKind::UnchangedCopyOut { copy } = f.kind else {
            continue;
        };
        let c = &cx.facts.copies[copy];
        if c.implicit || c.kind != CopyKind::Exit || !seen.insert(c.item) {
            continue;
        }
        // Reductions write through their own clause; sections moved by updates elsewhere
        // make the per-variable view too coarse to call the copy useless.
        if partly_moved(cx, c) {
            continue;
        }
        // Every time this item copies back, the device must not have written the data.
        let all = cx.facts.facts.iter().filter(|g| {
            matches!(g.kind, FactKind::UnchangedCopyOut { copy } if cx.facts.copies[copy].item == c.item)
        }).count();
        let made = cx
            .facts
            .copies
            .iter()
            .filter(|o| o.item == c.item && !o.to_device)
            .count();
        if all < made {
            continue;
        }
        let mut x = finding(
            "OMP205",
            f.certain,
            c.item,
            format!(
                "`{}` is copied back to the host ({}) but the device never wrote it",
                c.item_text,
                cost(c.bytes, None)
            ),
        );
        x.bytes = c.bytes;
        let to = match c.map_type {
            Some(MapType::From) => Some("alloc"),
            Some(MapType::ToFrom) => Some("to"),
            _ => None,
        };
        if let (Some(t), Some(m), true) = (
            to,
            cx.facts.mappings.iter().find(|m| m.item.span == c.item),
            f.certain,
        ) {
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
