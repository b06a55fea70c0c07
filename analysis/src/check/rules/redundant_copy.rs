//! OMP202: a copy of data already valid at its destination.

use super::common::{cost, facts, finding};
use super::Context;
use crate::check::env::{CopyKind, FactKind};
use crate::check::{fixes, Finding};
use super::{Code, Family, Rule, Tag};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP202,
    name: "redundant-copy",
    family: Family::Performance,
    severity: Severity::Warning,
    summary: "A copy moves data that is already valid at its destination.",
    doc: include_str!("redundant_copy.md"),
    tags: &[Tag::Unnecessary],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    for f in facts(cx, |f| matches!(f.kind, FactKind::RedundantCopy { .. })) {
        let FactKind::RedundantCopy { copy } = f.kind else {
            continue;
        };
        let c = &cx.facts.copies[copy];
        let dest = if c.to_device { "device" } else { "host" };
        let mut x = finding(
            RULE.code,
            true,
            f.span,
            format!(
                "this copy of `{}` to the {dest} moves {} that the {dest} already holds: neither side changed it since they were last in sync",
                c.item_text,
                cost(c.bytes, None)
            ),
        );
        x.bytes = c.bytes;
        if c.kind == CopyKind::Update {
            let d = &cx.module.directive(c.dir).directive;
            let items: usize = d.clauses.iter().map(|k| k.kind.items().len()).sum();
            if items == 1 {
                x.fixes = fixes::fix(
                    "remove the redundant `target update`",
                    vec![fixes::remove_lines(cx.source, d.span)],
                );
            }
        }
        out.push(x);
    }
    out
}
