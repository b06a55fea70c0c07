//! OMP109: a `target update` of data that is not mapped copies nothing.

use super::common::{facts, finding};
use super::Context;
use crate::check::env::FactKind;
use crate::check::Finding;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP109,
    name: "update-not-present",
    family: Family::Correctness,
    severity: Severity::Error,
    summary: "A `target update` names data that is not mapped at that point, so it copies nothing.",
    doc: include_str!("update_not_present.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    facts(cx, |f| matches!(f.kind, FactKind::UpdateNotPresent { .. }))
        .map(|f| {
            finding(
                RULE.code,
                f.certain,
                f.span,
                format!(
                    "`{}` is not mapped here, so this `target update` copies nothing",
                    f.name
                ),
            )
        })
        .collect()
}
