//! OMP301: an access of a parallel loop in a kernel whose threads touch memory far apart.

use super::common::finding;
use super::Context;
use crate::check::{Finding, Related};
use crate::coalesce::{stride_text, Stride};
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP301,
    name: "uncoalesced-access",
    family: Family::Performance,
    severity: Severity::Warning,
    summary: "An access in a parallel loop of a kernel whose consecutive iterations are far apart in memory: a warp needs more memory requests than consecutive elements would take.",
    doc: include_str!("uncoalesced_access.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for r in cx.coalescing() {
        // One finding per access text and loop: `v[i][j][1]` read four times in one statement
        // is one problem; the repeats become related locations.
        let mut first: std::collections::HashMap<&str, usize> = Default::default();
        let consts = cx.known_values(r.func);
        let func = cx.module.function(r.func);
        let header = func.stmt(r.root).span;
        for site in &r.sites {
            let c = &site.cost;
            // A symbolic stride (`8 * n`) whose requests cannot be counted: reported when it
            // grows with a size, never for a stride that may be small.
            let symbolic = c.requests.is_none()
                && matches!(&c.stride, Stride::Bytes(v) if v.iter().any(|p| p.as_const().is_none()));
            if !site.uncoalesced() && !symbolic {
                continue;
            }
            if let Some(&i) = first.get(site.text.as_str()) {
                out[i].related.push(Related {
                    span: site.span,
                    message: format!("`{}` again", site.text),
                    header: None,
                });
                continue;
            }
            first.insert(&site.text, out.len());
            let mut message = format!(
                "`{}` is not coalesced: consecutive iterations of `{}` access it {} apart, so a warp of {} threads needs {} where {} would do",
                site.text,
                r.iv,
                stride_text(&c.stride, &consts),
                c.threads,
                match c.requests {
                    Some(n) => format!("{n} memory requests"),
                    None => "an unknown number of memory requests".to_string(),
                },
                c.ideal,
            );
            if let Some(b) = r.best {
                message.push_str(&format!(
                    "; {} brings it down (OMP302)",
                    r.candidates[b].reshape.describe(&r.chain)
                ));
            }
            let mut f = finding(RULE.code, true, site.span, message);
            f.related.push(Related {
                span: header,
                message: format!("the parallel loop over `{}`", r.iv),
                header: None,
            });
            out.push(f);
        }
    }
    out
}
