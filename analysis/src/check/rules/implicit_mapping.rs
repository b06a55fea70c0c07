//! OMP209: kernels that rely on implicit copies where the synthesized mappings move fewer
//! bytes.

use super::common::{cost, finding, trips};
use super::unmapped_pointer::synthesized_fix;
use super::Context;
use crate::check::env::FactKind;
use crate::check::Finding;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP209,
    name: "implicit-mapping",
    family: Family::Performance,
    severity: Severity::Info,
    summary: "A function's kernels rely on implicit copies; the mappings omplens synthesizes move fewer bytes.",
    doc: include_str!("implicit_mapping.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    for (id, f) in cx.module.functions.iter_enumerated() {
        if !f.in_main_file {
            continue; // a header's kernels are not reported on here
        }
        let dirs: Vec<_> = cx
            .module
            .directives
            .iter()
            .enumerate()
            .filter(|(_, d)| d.function == Some(id))
            .collect();
        let kernels: Vec<_> = dirs
            .iter()
            .filter(|(_, d)| d.directive.kind.is_offload_kernel())
            .collect();
        if kernels.is_empty()
            || dirs.iter().any(|(_, d)| {
                d.directive.kind.is_data_mapping()
                    || d.directive.has_clause("map")
                    || d.directive.has_clause("defaultmap")
            })
            || cx
                .facts
                .facts
                .iter()
                .any(|x| x.func == id && matches!(x.kind, FactKind::Unmapped { .. }))
        {
            continue;
        }
        let copies: Vec<_> = cx.facts.copies.iter().filter(|c| c.func == id).collect();
        if copies.is_empty() {
            continue;
        }
        let in_loop = copies.iter().find_map(|c| c.in_loop);
        if in_loop.is_none() && kernels.len() < 2 {
            continue;
        }
        let fixes = synthesized_fix(cx, id);
        if fixes.is_empty() {
            continue;
        }
        let bytes: Option<u64> = copies.iter().map(|c| c.bytes).sum();
        let mult = in_loop.map(|l| trips(cx, id, l));
        let first = &kernels[0].1.directive;
        let mut x = finding(
            RULE.code,
            true,
            first.name_span,
            format!(
                "the kernels of `{}` copy their data implicitly at every launch ({} in all per round of launches); mapping them once with a `target data` region moves them once",
                f.name,
                cost(bytes, mult)
            ),
        );
        x.bytes = bytes;
        x.multiplier = mult;
        x.fixes = fixes;
        out.push(x);
    }
    out
}
