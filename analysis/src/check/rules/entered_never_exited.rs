//! OMP108: data entered with `target enter data` is never exited before its lifetime ends.

use super::common::{facts, finding, paths};
use super::Context;
use crate::check::env::FactKind;
use crate::check::Finding;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP108,
    name: "entered-never-exited",
    family: Family::Correctness,
    severity: Severity::Warning,
    summary: "Data mapped with `target enter data` is never unmapped with `target exit data` before its lifetime ends.",
    doc: include_str!("entered_never_exited.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    facts(cx, |f| matches!(f.kind, FactKind::NeverExited { .. }))
        .map(|f| {
            finding(
                RULE.code,
                f.certain,
                f.span,
                format!(
                    "`{}` is mapped by this `target enter data` and never unmapped{} before the end of `{}`: its device memory is never released",
                    f.name,
                    paths(f.certain),
                    cx.module.function(f.func).name
                ),
            )
        })
        .collect()
}
