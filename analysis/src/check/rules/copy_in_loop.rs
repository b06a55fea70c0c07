//! OMP201: data mapped and copied on every iteration of a host loop.

use super::common::{cost, finding, names_fixed_in_loop, trips, widest_loop};
use super::Context;
use crate::check::env::Mapping;
use crate::check::{fixes, Finding, Related};
use crate::ir::cfg::LoopId;
use crate::pragma::MapType;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP201,
    name: "copy-in-loop",
    family: Family::Performance,
    severity: Severity::Warning,
    summary: "Data is mapped and copied on every iteration of a host loop; a `target data` region around the loop copies it once.",
    doc: include_str!("copy_in_loop.md"),
    tags: &[],
};

/// A map item inside a host loop that allocates (and maybe copies) on every iteration and
/// could be mapped once around loop `l` instead, with map type `map_type`.
pub struct Hoist<'a> {
    pub m: &'a Mapping,
    pub l: LoopId,
    pub map_type: &'static str,
    pub copies: u64,
}

pub fn hoistable<'a>(cx: &'a Context) -> Vec<Hoist<'a>> {
    let mut out: Vec<Hoist> = Vec::new();
    for m in &cx.facts.mappings {
        let (Some(l0), true) = (m.in_loop, m.allocates) else {
            continue;
        };
        if m.item.clause_items == 0 || out.iter().any(|h| h.m.item.span == m.item.span) {
            continue;
        }
        let to = matches!(m.item.map_type, MapType::To | MapType::ToFrom);
        let from = matches!(m.item.map_type, MapType::From | MapType::ToFrom);
        if !matches!(
            m.item.map_type,
            MapType::To | MapType::ToFrom | MapType::From | MapType::Alloc
        ) {
            continue;
        }
        let ok = |l: LoopId| {
            let acc: Vec<_> = cx
                .facts
                .accesses_in_loop(m.func, l, &m.item.object)
                .collect();
            let host_w = acc.iter().any(|a| !a.on_device && a.write);
            let host_r = acc.iter().any(|a| !a.on_device && a.read);
            let dev_w = acc.iter().any(|a| a.on_device && a.write);
            (!to || (!host_w && (!dev_w || from)))
                && (!from || !host_r)
                && names_fixed_in_loop(cx, m.func, l, &m.item.text)
        };
        let Some(l) = widest_loop(cx, m.func, l0, ok) else {
            continue;
        };
        let map_type = match (to, from) {
            (true, true) => "tofrom",
            (true, false) => "to",
            (false, true) => "from",
            (false, false) => "alloc",
        };
        out.push(Hoist {
            m,
            l,
            map_type,
            copies: to as u64 + from as u64,
        });
    }
    out
}

pub fn findings(cx: &Context) -> Vec<Finding> {
    hoistable(cx)
        .into_iter()
        .filter(|h| h.copies > 0)
        .map(|h| loop_finding(cx, &h, RULE.code))
        .collect()
}

/// The finding for a hoistable mapping (OMP201 or OMP206).
pub fn loop_finding(cx: &Context, h: &Hoist, code: Code) -> Finding {
    let m = h.m;
    let g = cx.facts.cfgs[m.func]
        .as_ref()
        .expect("mappings come from analysed functions");
    let loop_stmt = g.loops[h.l].stmt;
    let loop_span = cx.module.function(m.func).stmt(loop_stmt).span;
    let mult = trips(cx, m.func, h.l);
    let bytes = m.item.bytes.map(|b| b * h.copies.max(1));
    let what = if code == RULE.code {
        format!(
            "`{}` is allocated and copied on every iteration of the loop at line {} ({}); a `target data` region around the loop copies it once",
            m.item.text,
            super::common::line(cx, loop_span),
            cost(bytes, Some(mult))
        )
    } else {
        format!(
            "device memory for `{}` is allocated and freed on every iteration of the loop at line {}; a `target data` region around the loop allocates it once",
            m.item.text,
            super::common::line(cx, loop_span)
        )
    };
    let mut x = finding(code, true, m.item.span, what);
    x.bytes = bytes;
    x.multiplier = Some(mult);
    x.related.push(Related {
        span: crate::ir::Span {
            start: loop_span.start,
            end: loop_span.start,
        },
        message: "the loop".to_string(),
        header: None,
    });
    let edits = fixes::region(
        cx.module,
        cx.source,
        m.func,
        loop_stmt,
        vec![fixes::clause("map", Some(h.map_type), &m.item.text)],
    );
    x.fixes = fixes::fix(
        format!("map `{}` ({}) around the loop", m.item.text, h.map_type),
        edits,
    );
    x
}
