//! OMP102: a kernel reads data the host changed after it was copied to the device.

use super::common::{demote_other_member, demote_unknown, facts, other_member_write, finding, item_text, paths, why_related};
use super::Context;
use crate::check::env::{FactKind, Why};
use crate::check::{fixes, Finding};
use crate::rewrite::Side;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP102,
    name: "stale-device-read",
    family: Family::Correctness,
    severity: Severity::Error,
    summary: "A kernel reads data the host changed after it was copied to the device, with no `target update to` in between.",
    doc: include_str!("stale_device_read.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    for f in facts(
        cx,
        // A host value that a kernel's lost write left behind (OMP104's) is reported there.
        |f| matches!(&f.kind, FactKind::StaleDeviceRead { why, .. } if !matches!(why, Some(Why::Alloc { .. } | Why::LostScalar { .. }))),
    ) {
        let FactKind::StaleDeviceRead { why, kernel } = &f.kind else {
            continue;
        };
        // A `target update to` put the host's copy over what a kernel wrote: what the kernel
        // reads is the host's data, which may be meant (a restore of scratch use), so this
        // is a warning and no update is offered.
        if let Some(Why::Overwritten { update, write }) = why {
            let mut x = finding(
                RULE.code,
                false,
                f.span,
                format!(
                    "the kernel reads `{}`{}, which the `target update to` at line {} overwrote with the host's copy after a kernel wrote it on the device at line {}: the device's results were dropped (as meant only if the kernel is to start again from the host's data, as a repeated timing run does)",
                    f.name,
                    paths(f.certain),
                    cx.module.line_ref(update.start),
                    cx.module.line_ref(write.start)
                ),
            );
            x.related = why_related(cx, &f.name, why);
            demote_unknown(&mut x, f, |at| cx.module.line_ref(at.start));
            out.push(x);
            continue;
        }
        let mut x = finding(
            RULE.code,
            f.certain,
            f.span,
            format!(
                "the kernel reads `{}`{} but the device copy is stale: the host changed it and no copy to the device followed",
                f.name,
                paths(f.certain)
            ),
        );
        x.related = why_related(cx, &f.name, why);
        if f.present {
            if let (Some(text), Some((func, stmt))) = (
                item_text(cx, f.func, &f.object, &f.name),
                fixes::directive_stmt(cx.module, *kernel),
            ) {
                let edits = fixes::standalone(
                    cx.module,
                    cx.source,
                    func,
                    stmt,
                    Side::Before,
                    "target update",
                    fixes::clause("to", None, &text),
                );
                x.fixes = fixes::fix(
                    format!("insert `target update to({text})` before the kernel"),
                    edits,
                );
            }
        }
        if let Some(written) = other_member_write(cx, f.span, why) {
            demote_other_member(&mut x, &f.name, &written);
        }
        demote_unknown(&mut x, f, |at| cx.module.line_ref(at.start));
        out.push(x);
    }
    out
}
