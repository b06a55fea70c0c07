//! OMP206: device memory allocated and freed on every iteration of a host loop.

use super::copy_in_loop::{hoistable, loop_finding};
use super::Context;
use crate::check::Finding;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP206,
    name: "allocation-in-loop",
    family: Family::Performance,
    severity: Severity::Warning,
    summary: "Device memory is allocated and freed on every iteration of a host loop.",
    doc: include_str!("allocation_in_loop.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let all = hoistable(cx);
    all.iter()
        .filter(|h| h.copies == 0)
        .map(|h| loop_finding(cx, h, RULE.code, &all))
        .collect()
}
