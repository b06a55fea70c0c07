//! OMP107: a mapped array section extends past the end of its allocation.

use super::common::finding;
use super::Context;
use crate::semantics::symbolic::pragma_poly;
use crate::check::env::Object;
use crate::check::{Finding, Related};
use crate::ir::{ExprKind, FuncId, VarId};
use crate::semantics::constants::substitute;
use crate::semantics::sections;
use crate::semantics::symbolic::Poly;
use crate::text::TextEdit;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP107,
    name: "section-past-allocation",
    family: Family::Correctness,
    severity: Severity::Error,
    summary: "A mapped array section extends past the end of the allocation it points into.",
    doc: include_str!("section_past_allocation.md"),
    tags: &[],
};

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
        // Macros only: the section's names are the mapping function's, compared per caller.
        let macros = &cx.module.macros;
        let lower = match lower {
            Some(e) => pragma_poly(e, macros),
            None => Some(Poly::constant(0)),
        };
        let (Some(lower), Some(length)) = (lower, pragma_poly(length, macros)) else {
            continue;
        };
        let Some(over) = allocations(cx, m.func, *v, &lower.add(&length))
            .into_iter()
            .find(|a| a.end.sub(&a.length).as_const().is_some_and(|d| d > 0))
        else {
            continue;
        };
        let name = &cx.module.var(*v).name;
        let (end, alloc) = (&over.end, &over.length);
        let mut x = finding(
            RULE.code,
            true,
            m.item.span,
            format!(
                "`{}` reaches element {end} of `{name}`, but its allocation holds {alloc} elements: the copy reads or writes past the end",
                m.item.text
            ),
        );
        if let Some(at) = over.call {
            x.related.push(Related {
                span: at,
                message: format!("called here with data of {alloc} elements"),
                header: None,
            });
        }
        if let Some(g) = over.allocated_in {
            let gf = cx.module.function(g);
            if let Some(at) = gf.name_span.or(gf.span) {
                x.related.push(Related {
                    span: at,
                    message: format!("`{}` allocates `{name}` with {alloc} elements", gf.name),
                    header: None,
                });
            }
        }
        // The fix names the allocation's length in the mapping function's own terms.
        if lower.as_const() == Some(0) && over.call.is_none() && over.allocated_in.is_none() {
            let text = format!("{name}[0:{}]", over.written);
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

/// An allocation the section may point into, with both ends in the same terms.
struct Allocation {
    /// The section's end (`lower + length`), with known values substituted.
    end: Poly,
    /// The allocation's length in elements, with known values substituted.
    length: Poly,
    /// The allocation's length as written at the allocation.
    written: Poly,
    /// The call that passes the data, when it was allocated by a caller.
    call: Option<crate::ir::Span>,
    /// The function that allocates a global pointer's data, when not the mapping one.
    allocated_in: Option<FuncId>,
}

/// The allocations of `v` (a pointer of `func`) that omplens can see: one in `func` itself, or,
/// for a parameter, one in each direct caller that passes an allocated local, with the
/// section's end translated into the caller's terms through the arguments.
fn allocations(cx: &Context, func: FuncId, v: VarId, end: &Poly) -> Vec<Allocation> {
    let module = cx.module;
    let mut out = Vec::new();
    if let Some(length) = sections::allocation_length(module, func, v) {
        let values = cx.known_values(func);
        out.push(Allocation {
            end: substitute(end, &values),
            length: substitute(&length, &values),
            written: length,
            call: None,
            allocated_in: None,
        });
    }
    // A global pointer that only ever holds its own allocations: each function that
    // allocates it (`main`, an init function) gives its length.
    let global = matches!(
        module.var(v).storage,
        crate::ir::Storage::Global | crate::ir::Storage::StaticGlobal
    );
    if global && out.is_empty() && sections::holds_only_own_allocations(module, v) {
        for (g, gf) in module.functions.iter_enumerated() {
            if g == func || !gf.has_body {
                continue;
            }
            let Some(length) = sections::allocation_length(module, g, v) else {
                continue;
            };
            out.push(Allocation {
                end: substitute(end, &cx.known_values(func)),
                length: substitute(&length, &cx.known_values(g)),
                written: length,
                call: None,
                allocated_in: Some(g),
            });
        }
    }
    let f = module.function(func);
    let Some(index) = f.params.iter().position(|p| *p == v) else {
        return out;
    };
    for &(caller_id, call) in cx.calls_to(func) {
        let caller = module.function(caller_id);
        let e = caller.expr(call);
        let ExprKind::Call { args, .. } = &e.kind else {
            continue;
        };
        if args.len() != f.params.len() {
            continue;
        }
        let mut arg = args[index];
        while let ExprKind::Cast(x) = caller.expr(arg).kind {
            arg = x;
        }
        let ExprKind::Var(w) = caller.expr(arg).kind else {
            continue;
        };
        let Some(length) = sections::allocation_length(module, caller_id, w) else {
            continue;
        };
        // The callee's parameters, in the caller's terms.
        let mut in_caller = end.clone();
        for (p, a) in f.params.iter().zip(args) {
            let name = &module.var(*p).name;
            if !in_caller.contains_atom(name) {
                continue;
            }
            match Poly::from_expr(module, caller, *a) {
                Some(q) => in_caller = in_caller.subst(name, &q),
                None => in_caller = Poly::atom("?"),
            }
        }
        let values = cx.known_values(caller_id);
        out.push(Allocation {
            end: substitute(&in_caller, &values),
            length: substitute(&length, &values),
            written: length,
            call: Some(e.span),
            allocated_in: None,
        });
    }
    out
}
