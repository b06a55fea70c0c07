//! OMP107: a mapped array section extends past the end of its allocation.

use super::common::finding;
use super::Context;
use crate::check::env::items::poly;
use crate::check::env::Object;
use crate::check::{Finding, TextEdit};
use crate::semantics::sections;
use crate::semantics::symbolic::Poly;

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for m in &cx.facts.mappings {
        let (Object::Var(v), Some((lower, Some(length)))) = (&m.item.object, &m.item.section)
        else {
            continue;
        };
        if !cx.module.var(*v).ty.is_pointer() || !seen.insert(m.item.span) {
            continue;
        }
        let Some(alloc) = sections::allocation_length(cx.module, m.func, *v) else {
            continue;
        };
        let lower = match lower {
            Some(e) => poly(e),
            None => Some(Poly::constant(0)),
        };
        let (Some(lower), Some(length)) = (lower, poly(length)) else {
            continue;
        };
        let end = lower.add(&length);
        let Some(over) = end.sub(&alloc).as_const() else {
            continue;
        };
        if over <= 0 && lower.as_const().is_none_or(|l| l >= 0) {
            continue;
        }
        let name = &cx.module.var(*v).name;
        let mut x = finding(
            "OMP107",
            true,
            m.item.span,
            format!(
                "`{}` reaches element {end} of `{name}`, but its allocation holds {alloc} elements: the copy reads or writes past the end",
                m.item.text
            ),
        );
        if lower.as_const() == Some(0) {
            let text = format!("{name}[0:{alloc}]");
            x.fixes = crate::check::fixes::fix(
                format!("map `{text}`"),
                vec![TextEdit {
                    start: m.item.span.start,
                    end: m.item.span.end,
                    text,
                }],
            );
        }
        out.push(x);
    }
    out
}
