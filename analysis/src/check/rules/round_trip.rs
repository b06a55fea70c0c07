//! OMP203: data copied to the host and back to the device with no host access in between.

use super::common::{cost, facts, finding, line};
use super::Context;
use crate::check::env::FactKind;
use crate::check::{Finding, Related};
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP203,
    name: "round-trip",
    family: Family::Performance,
    severity: Severity::Warning,
    summary: "Data is copied to the host and back to the device with no host access in between.",
    doc: include_str!("round_trip.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    for f in facts(cx, |f| matches!(f.kind, FactKind::RoundTrip { .. })) {
        let FactKind::RoundTrip { copy, previous } = f.kind else {
            continue;
        };
        let (c, p) = (&cx.facts.copies[copy], &cx.facts.copies[previous]);
        // Different sections of one array are different data.
        if c.item_text != p.item_text {
            continue;
        }
        // Both copies implicit: OMP209 reports the function's reliance on implicit maps once,
        // with the synthesized plan as the fix, instead of one warning per kernel pair.
        if c.implicit && p.implicit {
            continue;
        }
        let mut x = finding(
            RULE.code,
            true,
            f.span,
            format!(
                "`{}` goes back to the device here after it was copied to the host at line {}{} with no host access in between ({} each way); keep it on the device instead",
                c.item_text,
                line(cx, p.item),
                if p.func == c.func {
                    String::new()
                } else {
                    format!(" (in `{}`)", cx.module.function(p.func).name)
                },
                cost(c.bytes, None)
            ),
        );
        x.bytes = c.bytes;
        x.related.push(Related {
            span: p.item,
            message: format!("`{}` copied to the host here", p.item_text),
            header: None,
        });
        out.push(x);
    }
    out
}
