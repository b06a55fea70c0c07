//! OMP204: data copied to the device that the device overwrites or never reads.

use super::common::{cost, facts, finding, partly_moved, retype};
use super::Context;
use crate::check::env::{CopyKind, FactKind};
use crate::check::Finding;
use crate::pragma::MapType;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP204,
    name: "unused-copy-in",
    family: Family::Performance,
    severity: Severity::Warning,
    summary: "`to`/`tofrom` copies data to the device that the device overwrites (or never reads) before using it.",
    doc: include_str!("unused_copy_in.md"),
    tags: &[],
};

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
        // A reduction combines with the value copied in; sections moved by updates elsewhere
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
            RULE.code,
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
            x.fixes = retype(
                cx,
                c.item,
                |t| match t {
                    MapType::To => Some("alloc"),
                    MapType::ToFrom => Some("from"),
                    _ => None,
                },
                |text, to| format!("map `{text}` with `{to}`"),
            );
        }
        out.push(x);
    }
    out
}
