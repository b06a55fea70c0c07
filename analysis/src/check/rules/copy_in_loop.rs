//! OMP201: data mapped and copied on every iteration of a host loop.

use super::common::{cost, finding, names_fixed_in_loop, trips_within, widest_loop};
use super::Context;
use crate::check::env::{Mapping, Object, Passed};
use crate::ir::cfg::Exec;
use crate::ir::{Callee, ExprKind, FuncId, Span, Storage};
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
/// could be mapped once around loop `l` of `func` instead, as `text` with map type
/// `map_type`. The loop is the mapping's function's own, or a caller's loop around a call
/// of that function (`call`).
pub struct Hoist<'a> {
    pub m: &'a Mapping,
    pub func: FuncId,
    /// The innermost loop of `func` around the mapping (or the call).
    pub inner: LoopId,
    pub l: LoopId,
    /// The mapped object and the item, in `func`'s terms.
    pub object: Object,
    pub text: String,
    /// Whether `text` can be written in a clause of `func`: not for a member's data reached
    /// through a method's object (`s.weights[0:n]` of a `std::vector` member names no
    /// section a clause can map).
    pub fixable: bool,
    /// The call in the caller's loop, and the functions between (callers of the mapping's
    /// function that pass the data on).
    pub call: Option<(Span, Vec<FuncId>)>,
    pub map_type: &'static str,
    pub copies: u64,
}

pub fn hoistable<'a>(cx: &'a Context) -> Vec<Hoist<'a>> {
    let mut out: Vec<Hoist> = Vec::new();
    for m in &cx.facts.mappings {
        if !m.allocates
            || m.item.clause_items == 0
            || out.iter().any(|h| h.m.item.span == m.item.span)
        {
            continue;
        }
        let to = matches!(m.item.map_type, MapType::To | MapType::ToFrom);
        let from = matches!(m.item.map_type, MapType::From | MapType::ToFrom);
        let map_type = match m.item.map_type {
            MapType::ToFrom => "tofrom",
            MapType::To => "to",
            MapType::From => "from",
            MapType::Alloc => "alloc",
            _ => continue,
        };
        let hoist = |func: FuncId, l: LoopId, object: &Object, text: String, call| {
            let ok = |l: LoopId| {
                let acc: Vec<_> = cx.facts.accesses_in_loop(func, l, object).collect();
                let host_w = acc.iter().any(|a| !a.on_device && a.write);
                let host_r = acc.iter().any(|a| !a.on_device && a.read);
                // A kernel of a callee in the loop writes it (the call's own accesses on
                // the host are among `acc`).
                let dev_w = acc.iter().any(|a| a.on_device && a.write)
                    || cx.facts.passed.iter().any(|p| {
                        p.caller == func
                            && &p.object == object
                            && p.kernel_write
                            && cx.facts.in_loop(func, l, p.block)
                    });
                (!to || (!host_w && (!dev_w || from)))
                    && (!from || !host_r)
                    && names_fixed_in_loop(cx, func, l, &text)
            };
            let inner = l;
            let l = widest_loop(cx, func, l, ok)?;
            Some(Hoist {
                m,
                func,
                inner,
                l,
                object: object.clone(),
                fixable: matches!(object, Object::Var(_)),
                text,
                call,
                map_type,
                copies: to as u64 + from as u64,
            })
        };
        let found = match m.in_loop {
            Some(l0) => hoist(m.func, l0, &m.item.object, m.item.text.clone(), None),
            // Mapped once per call: the loops of the callers around the call.
            None => callers_loops(cx, m).into_iter().find_map(|c| {
                hoist(
                    c.call.caller,
                    c.inner,
                    &c.call.object,
                    c.text,
                    Some((c.call.span, c.through)),
                )
            }),
        };
        out.extend(found);
    }
    out
}

/// A call inside a host loop of its caller that leads to `m`'s mapping (directly or through
/// callers of `m`'s function that pass the data on, up to three calls deep).
struct LoopCall<'a> {
    /// The call in the loop.
    call: &'a Passed,
    /// Its innermost loop.
    inner: LoopId,
    /// `m`'s item in the loop's function's terms.
    text: String,
    /// The functions between the loop's function and `m`'s (for messages).
    through: Vec<FuncId>,
}

/// The calls inside host loops that pass the object `m` maps to `m`'s function, directly or
/// through other calls: each with `m`'s item in the loop's function's terms (parameters
/// replaced by the arguments; none when the item names the function's locals, or when the
/// mapped object is passed as anything but a variable).
fn callers_loops<'a>(cx: &'a Context, m: &'a Mapping) -> Vec<LoopCall<'a>> {
    let mut out = Vec::new();
    let mut work = vec![(m.func, m.item.object.clone(), m.item.text.clone(), Vec::new())];
    while let Some((func, object, text, through)) = work.pop() {
        for p in &cx.facts.passed {
            if p.callee != func || p.caller == func || p.callee_object != object {
                continue;
            }
            if p.caller == m.func || through.contains(&p.caller) {
                continue;
            }
            let Some(text) = in_caller_terms(cx, &object, &text, p) else {
                continue;
            };
            let Some(g) = cx.facts.cfgs[p.caller].as_ref() else {
                continue;
            };
            match g.block(p.block).loop_id {
                Some(l0) if g.loops[l0].exec != Exec::Device => out.push(LoopCall {
                    call: p,
                    inner: l0,
                    text,
                    through: through.clone(),
                }),
                Some(_) => {}
                None if through.len() < 2 && matches!(p.object, Object::Var(_)) => {
                    let mut t = through.clone();
                    t.push(p.caller);
                    work.push((p.caller, p.object.clone(), text, t));
                }
                None => {}
            }
        }
    }
    out
}

/// Bytes the map item `text` of `object` (a local or parameter) covers, where values its
/// function knows (constants, locals set once) give the section's length: for an item
/// written in a caller's terms, whose length in the callee is a parameter.
fn bytes_in(cx: &Context, object: &Object, text: &str) -> Option<u64> {
    let parsed = crate::pragma::parse_pragma(&format!("#pragma omp target map(to: {text})"), 0);
    let directive = parsed.directive?;
    let item = directive.clauses.iter().find_map(|c| match &c.kind {
        crate::pragma::ClauseKind::Map { items, .. } => items.first(),
        _ => None,
    })?;
    let Some(crate::pragma::Accessor::Section {
        length: Some(length),
        ..
    }) = item.sections().next()
    else {
        return None;
    };
    let Object::Var(v) = object else { return None };
    if item.sections().count() != 1 || item.path.len() != 1 {
        return None;
    }
    let var = cx.module.var(*v);
    let func = var.function?;
    let elem = match &var.ty.referent().kind {
        crate::ir::TypeKind::Pointer(t) => t.size?,
        crate::ir::TypeKind::Array { element, .. } => element.size?,
        _ => return None,
    };
    let values = cx.known_values(func);
    let n = crate::semantics::symbolic::pragma_poly(length, &values)?.as_const()?;
    Some(n.max(0) as u64 * elem)
}

/// A map item `text` of the callee of `p`, mapping `object` there, as the caller of `p`
/// would write it. The data of a member of a method's object is written through the call's
/// receiver (`s.weights[0:n]` for `s.apply(..)`): a description for the message and for
/// checking that the loop does not change what it names, not a clause (see `Hoist::fixable`).
fn in_caller_terms(cx: &Context, object: &Object, text: &str, p: &Passed) -> Option<String> {
    let caller = cx.module.function(p.caller);
    let callee = cx.module.function(p.callee);
    let (args, receiver) = caller.exprs.iter().find_map(|e| match &e.kind {
        ExprKind::Call {
            callee: Callee::Direct(c),
            args,
            receiver,
        } if *c == p.callee
            && (e.span == p.span || args.iter().any(|a| caller.expr(*a).span == p.span)) =>
        {
            Some((args, *receiver))
        }
        _ => None,
    })?;
    let source_of = |e: crate::ir::ExprId| -> Option<&str> {
        let s = caller.expr(e).span;
        cx.module.text(cx.source, s)
    };
    let simple = |a: &str| !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut out = String::new();
    let mut rest = text;
    let mut first = true;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        let (before, tail) = rest.split_at(start);
        out.push_str(before);
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        let (word, after) = tail.split_at(end);
        let member = before.trim_end().ends_with('.') || before.trim_end().ends_with("->");
        rest = after;
        if member {
            out.push_str(word);
            continue;
        }
        let base_here = std::mem::replace(&mut first, false);
        if let (true, Object::Member(field)) = (base_here, object) {
            // The member's data, named in the callee by the member or a local copy of it.
            let r = source_of(receiver?)?.trim();
            if !simple(r) || p.object != *object {
                return None;
            }
            out.push_str(&format!("{r}.{field}"));
            continue;
        }
        let param = callee
            .params
            .iter()
            .position(|&v| cx.module.var(v).name == word);
        match param {
            Some(i) => {
                let a = source_of(*args.get(i)?)?.trim();
                if base_here && Object::Var(callee.params[i]) == *object {
                    // The mapped data itself: the caller's variable that holds it.
                    match &p.object {
                        Object::Var(v) if simple(a) && cx.module.var(*v).name == a => {
                            out.push_str(a)
                        }
                        _ => return None,
                    }
                } else if simple(a) {
                    out.push_str(a);
                } else {
                    out.push('(');
                    out.push_str(a);
                    out.push(')');
                }
            }
            None => {
                // A global, or a name the caller cannot see (a local of the callee).
                let global = cx.module.vars.iter().any(|v| {
                    v.name == word && matches!(v.storage, Storage::Global | Storage::StaticGlobal)
                });
                let keyword = matches!(word, "sizeof" | "int" | "long" | "unsigned" | "size_t");
                if base_here || !(global || keyword) {
                    return None;
                }
                out.push_str(word);
            }
        }
    }
    out.push_str(rest);
    Some(out)
}

pub fn findings(cx: &Context) -> Vec<Finding> {
    let all = hoistable(cx);
    all.iter()
        .filter(|h| h.copies > 0)
        .map(|h| loop_finding(cx, h, RULE.code, &all))
        .collect()
}

/// The finding for a hoistable mapping (OMP201 or OMP206). Its fix maps every item of `all`
/// hoisted around the same loop: one region, whichever finding's fix is taken.
pub fn loop_finding(cx: &Context, h: &Hoist, code: Code, all: &[Hoist]) -> Finding {
    let m = h.m;
    let g = cx.facts.cfgs[h.func]
        .as_ref()
        .expect("mappings come from analysed functions");
    let loop_stmt = g.loops[h.l].stmt;
    let loop_span = cx.module.function(h.func).stmt(loop_stmt).span;
    let mult = trips_within(cx, h.func, h.inner, h.l);
    let per_copy = m.item.bytes.or_else(|| {
        h.call.as_ref()?;
        bytes_in(cx, &h.object, &h.text)
    });
    let bytes = per_copy.map(|b| b * h.copies.max(1));
    let line = super::common::line(cx, loop_span);
    let each = match &h.call {
        None => format!("on every iteration of the loop at line {line}"),
        Some((_, through)) => {
            let via: Vec<String> = through
                .iter()
                .rev()
                .map(|f| format!("`{}`", cx.module.function(*f).name))
                .collect();
            format!(
                "on every call of `{}`, which `{}` calls{} on every iteration of the loop at line {line}",
                cx.module.function(m.func).name,
                cx.module.function(h.func).name,
                if via.is_empty() {
                    String::new()
                } else {
                    format!(" (through {})", via.join(", "))
                }
            )
        }
    };
    let region = if h.call.is_some() {
        "a `target data` region around that loop"
    } else {
        "a `target data` region around the loop"
    };
    let what = if code == RULE.code {
        format!(
            "`{}` is allocated and copied {each} ({}); {region} copies it once",
            m.item.text,
            cost(bytes, Some(mult))
        )
    } else {
        format!(
            "device memory for `{}` is allocated and freed {each}; {region} allocates it once",
            m.item.text,
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
    if let Some((call, through)) = &h.call {
        let callee = through.last().copied().unwrap_or(m.func);
        x.related.push(Related {
            span: *call,
            message: format!("passed to `{}` here", cx.module.function(callee).name),
            header: None,
        });
    }
    if !h.fixable {
        return x;
    }
    let mut items: Vec<(&str, &str)> = vec![(h.map_type, &h.text)];
    for o in all
        .iter()
        .filter(|o| o.func == h.func && o.l == h.l && o.fixable)
    {
        if !items.iter().any(|(_, t)| *t == o.text) {
            items.push((o.map_type, &o.text));
        }
    }
    let edits = fixes::region(
        cx.module,
        cx.source,
        h.func,
        loop_stmt,
        items
            .iter()
            .map(|(ty, text)| fixes::clause("map", Some(ty), text))
            .collect(),
    );
    let named: Vec<String> = items
        .iter()
        .map(|(ty, text)| format!("`{text}` ({ty})"))
        .collect();
    x.fixes = fixes::fix(format!("map {} around the loop", named.join(", ")), edits);
    x
}
