//! OMP101: the host reads data whose valid copy is on the device.

use super::common::{facts, finding, item_text, paths, why_related};
use super::Context;
use crate::check::env::{FactKind, Why};
use crate::check::{fixes, Finding};
use crate::plan::rewrite::Side;

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    for f in facts(
        cx,
        |f| matches!(&f.kind, FactKind::StaleHostRead { why } if !matches!(why, Some(Why::LostScalar { .. }))),
    ) {
        let FactKind::StaleHostRead { why } = &f.kind else {
            continue;
        };
        let detail = match why {
            Some(Why::NoCopyBack { .. }) => {
                ": the copy back at the end of its mapping did not happen, because an enclosing mapping keeps it on the device"
            }
            Some(Why::Dropped { .. }) => ": the device wrote it and it was unmapped without a copy back",
            Some(Why::Alloc { .. }) => ": it was copied back from device memory that nothing initialized",
            _ => ": no copy back reaches this read",
        };
        let mut x = finding(
            "OMP101",
            f.certain,
            f.span,
            format!(
                "`{}` is read on the host{} while its valid copy is on the device{detail}",
                f.name,
                paths(f.certain)
            ),
        );
        x.related = why_related(cx, &f.name, why);
        x.fixes = fix(cx, f, why);
        out.push(x);
    }
    out
}

fn fix(cx: &Context, f: &crate::check::env::Fact, why: &Option<Why>) -> Vec<crate::check::Fix> {
    if let Some(Why::Dropped { item, .. }) = why {
        if let Some(m) = cx
            .facts
            .mappings
            .iter()
            .find(|m| m.item.span == *item && m.item.clause_items > 0)
        {
            let to = match m.item.map_type {
                crate::pragma::MapType::To => "tofrom",
                crate::pragma::MapType::Alloc => "from",
                _ => return Vec::new(),
            };
            let dspan = cx.module.directive(m.dir).directive.span;
            if let Some(edits) = fixes::change_map_type(
                cx.source,
                m.item.clause,
                m.item.clause_items,
                m.item.span,
                &m.item.text,
                dspan,
                to,
            ) {
                return fixes::fix(format!("map `{}` with `{to}`", m.item.text), edits);
            }
        }
        return Vec::new();
    }
    if !f.present {
        return Vec::new();
    }
    let Some(text) = item_text(cx, f.func, &f.object, &f.name) else {
        return Vec::new();
    };
    let edits = fixes::standalone(
        cx.module,
        cx.source,
        f.func,
        f.stmt,
        Side::Before,
        "target update",
        fixes::clause("from", None, &text),
    );
    fixes::fix(
        format!("insert `target update from({text})` before the read"),
        edits,
    )
}
