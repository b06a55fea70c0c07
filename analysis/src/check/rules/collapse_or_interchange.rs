//! OMP302: a parallel loop nest whose accesses coalesce after `collapse(k)`, or after an
//! interchange followed by `collapse(k)`, with both shown safe.

use super::common::finding;
use super::Context;
use crate::check::{Finding, Related};
use crate::coalesce::Reshape;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP302,
    name: "collapse-or-interchange",
    family: Family::Performance,
    severity: Severity::Warning,
    summary: "A parallel loop nest whose accesses coalesce after `collapse(k)` (or an interchange then `collapse(k)`), shown safe by the iteration-point difference test.",
    doc: include_str!("collapse_or_interchange.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in cx.coalescing() {
        let Some(b) = r.best else { continue };
        let c = &r.candidates[b];
        let Some(edits) = &c.edits else { continue };
        let d = cx.module.directive(r.directive);
        let what = c.reshape.describe(&r.chain);
        let depth = c.reshape.depth();
        let order = c.reshape.order(&(0..r.chain.len()).collect::<Vec<_>>());
        let merged: Vec<String> = order[..depth]
            .iter()
            .map(|i| format!("`{}`", r.chain[*i]))
            .collect();
        let mut message = format!(
            "{what} cuts the memory requests per warp of this loop nest from {} to {}: threads then take consecutive iterations of `{}`. Safe: the nest is perfect, its bounds do not change in it, and no iteration of {} depends on another",
            r.requests,
            c.requests,
            r.chain[order[depth - 1]],
            merged.join(", "),
        );
        if let Reshape::Interchange { .. } = c.reshape {
            // Why the plain collapse was not enough.
            if let Some(Err(why)) = r
                .candidates
                .iter()
                .find(|x| x.reshape == Reshape::Collapse { depth })
                .map(|x| &x.safe)
            {
                message.push_str(&format!("; collapse({depth}) alone is not safe: {why}"));
            }
        }
        let mut f = finding(RULE.code, true, d.directive.span, message);
        let func = cx.module.function(r.func);
        f.related.push(Related {
            span: func.stmt(r.root).span,
            message: format!(
                "the loop nest over {}",
                r.chain
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            header: None,
        });
        f.fixes = crate::check::fixes::fix(what, edits.clone());
        out.push(f);
    }
    out
}
