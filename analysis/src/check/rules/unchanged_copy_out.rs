//! OMP205: data copied back to the host that the device never wrote.

use super::common::{cost, facts, finding, partly_moved, retype};
use super::Context;
use crate::check::env::{CopyKind, FactKind};
use crate::check::Finding;
use crate::pragma::MapType;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP205,
    name: "unchanged-copy-out",
    family: Family::Performance,
    severity: Severity::Warning,
    summary: "`from`/`tofrom` copies data back that the device never wrote.",
    doc: include_str!("unchanged_copy_out.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    // Data the host read while the device held its valid copy (OMP101), per function: the
    // device did write it, and the check stops following the stale copy after reporting it.
    let read_stale: std::collections::BTreeSet<_> = cx
        .facts
        .facts
        .iter()
        .filter(|g| matches!(g.kind, FactKind::StaleHostRead { .. }))
        .map(|g| (g.func, &g.object))
        .collect();
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
        if read_stale.contains(&(f.func, &f.object)) {
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
        // A kernel of the function writes it: the host's copy was brought up to date after
        // that (a `target update from`), not never made stale.
        let device_writes = cx
            .facts
            .points
            .iter()
            .any(|p| p.func == f.func && p.object == f.object && p.on_device && p.write);
        let why = if device_writes {
            "the device has not changed it since the host's copy was last brought up to date"
        } else {
            "the device never wrote it"
        };
        let mut x = finding(
            RULE.code,
            f.certain,
            c.item,
            format!(
                "`{}` is copied back to the host ({}) but {why}",
                c.item_text,
                cost(c.bytes, None)
            ),
        );
        x.bytes = c.bytes;
        if f.certain {
            x.fixes = retype(
                cx,
                c.item,
                |t| match t {
                    MapType::From => Some("alloc"),
                    MapType::ToFrom => Some("to"),
                    _ => None,
                },
                |text, to| format!("map `{text}` with `{to}`"),
            );
        }
        out.push(x);
    }
    out
}
