//! OMP105: a kernel reads device memory that was mapped without a copy and never written.

use super::common::{demote_unknown, facts, finding, paths, retype, why_related};
use super::Context;
use crate::check::env::{FactKind, Why};
use crate::check::Finding;
use crate::pragma::MapType;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP105,
    name: "uninitialized-device-read",
    family: Family::Correctness,
    severity: Severity::Error,
    summary: "A kernel reads data mapped with `alloc` (or `from`) before anything wrote it on the device.",
    doc: include_str!("uninitialized_device_read.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    for f in facts(cx, |f| {
        matches!(
            &f.kind,
            FactKind::StaleDeviceRead {
                why: Some(Why::Alloc { .. }),
                ..
            }
        )
    }) {
        let FactKind::StaleDeviceRead {
            why: Some(Why::Alloc { item }),
            ..
        } = &f.kind
        else {
            continue;
        };
        let mut x = finding(
            RULE.code,
            f.certain,
            f.span,
            format!(
                "the kernel reads `{}`{} before anything wrote it on the device: it was mapped without copying its data",
                f.name,
                paths(f.certain)
            ),
        );
        x.related = why_related(cx, &f.name, &Some(Why::Alloc { item: *item }));
        x.fixes = retype(
            cx,
            *item,
            |t| match t {
                MapType::Alloc => Some("to"),
                MapType::From => Some("tofrom"),
                _ => None,
            },
            |text, to| format!("copy `{text}` to the device (`{to}`)"),
        );
        demote_unknown(&mut x, f, |at| cx.module.line_ref(at.start));
        out.push(x);
    }
    out
}
