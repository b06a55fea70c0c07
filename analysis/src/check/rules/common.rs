//! Helpers the rules share: building findings, naming lines, finding how the program writes
//! an object in a clause.

use super::{Code, Context};
use crate::check::env::{Fact, Object, Why};
use crate::check::{Finding, Related, Severity};
use crate::ir::{FuncId, Span};

/// A finding of rule `code`: its own severity when `certain`, else a warning.
pub fn finding(code: Code, certain: bool, span: Span, message: String) -> Finding {
    let r = code.rule();
    let severity = if certain || r.severity > Severity::Warning {
        r.severity
    } else {
        Severity::Warning
    };
    Finding {
        code,
        severity,
        span,
        message,
        related: Vec::new(),
        fixes: Vec::new(),
        bytes: None,
        multiplier: None,
    }
}

pub fn line(cx: &Context, span: Span) -> String {
    cx.module.line_ref(span.start)
}

/// A correctness finding whose fact rests on data a call omplens cannot see into received:
/// at most a warning, naming the call, and no fix (what the call does is unknown, so a
/// rewrite could make the program worse).
pub fn demote_unknown(x: &mut Finding, f: &Fact, line_of: impl Fn(Span) -> String) {
    let Some(u) = &f.unknown else { return };
    if x.severity == Severity::Error {
        x.severity = Severity::Warning;
    }
    let (said, here) = if u.passed {
        (
            format!(
                " (not certain: a call at line {} receives `{}`, and {})",
                line_of(u.at),
                f.name,
                u.what
            ),
            format!("`{}` is passed here: {}", f.name, u.what),
        )
    } else {
        (
            format!(
                " (not certain: the call at line {} may use `{}`: {})",
                line_of(u.at),
                f.name,
                u.what
            ),
            format!("`{}` may be used here: {}", f.name, u.what),
        )
    };
    x.message.push_str(&said);
    x.related.push(Related {
        span: u.at,
        message: here,
        header: None,
    });
    x.fixes.clear();
}

/// `base.member` or `base->member` at the start of the text of `span` (an access the
/// analysis recorded): the variable's name, the member's, and the text up to the member's end.
fn member_access(source: &str, span: Span) -> Option<(&str, &str, &str)> {
    let text = source.get(span.start as usize..span.end as usize)?;
    let ident = |t: &str| -> usize {
        t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(t.len())
    };
    let base = &text[..ident(text)];
    let rest = text[base.len()..].trim_start();
    let rest = rest
        .strip_prefix('.')
        .or_else(|| rest.strip_prefix("->"))?
        .trim_start();
    let member = &rest[..ident(rest)];
    let end = text.len() - rest.len() + member.len();
    let named = !base.is_empty() && !member.is_empty();
    (named && !base.starts_with(|c: char| c.is_ascii_digit())).then_some((
        base,
        member,
        &text[..end],
    ))
}

/// omplens follows a struct variable as one object, not member by member: when the access at
/// `read` and the write that made its copy stale (`why`) name different members of one
/// variable (`g.y[5]` read, `g.x[3]` written), the read is stale only as far as that model
/// goes. Returns the written member's access (`g.x`) then.
pub fn other_member_write(cx: &Context, read: Span, why: &Option<Why>) -> Option<String> {
    let (Some(Why::Write { at, .. }) | Some(Why::CopiedOver { write: at, .. })) = why else {
        return None;
    };
    let (base, member, _) = member_access(cx.source, read)?;
    let (wbase, wmember, written) = member_access(cx.source, *at)?;
    (base == wbase && member != wmember).then(|| written.to_string())
}

/// [`other_member_write`] said the staleness rests on a write to another member: the finding
/// is a warning that says so, with no fix.
pub fn demote_other_member(x: &mut Finding, name: &str, written: &str) {
    if x.severity == Severity::Error {
        x.severity = Severity::Warning;
    }
    x.message.push_str(&format!(
        " (not certain: omplens follows `{name}` as one object, and the write it saw is to `{written}`, another member)"
    ));
    x.fixes.clear();
}

/// "on every path" / "on some paths".
pub fn paths(certain: bool) -> &'static str {
    if certain {
        ""
    } else {
        " on some paths"
    }
}

/// The text a clause uses for `object` in `func` (a map item as the program wrote it, e.g.
/// `a[0:n]`), or its name for arrays and scalars.
pub fn item_text(cx: &Context, func: FuncId, object: &Object, name: &str) -> Option<String> {
    // The rows of an array of pointers: their items name one row by a loop's counter
    // (`p[i][0:m]`), which means another row, or nothing, elsewhere.
    if crate::check::env::split::is_rows(object) {
        return None;
    }
    if let Some(m) =
        cx.facts.mappings.iter().find(|m| {
            m.func == func && &m.item.object == object && m.item.clause != Span::default()
        })
    {
        if !m.item.text.is_empty() {
            return Some(m.item.text.clone());
        }
    }
    match object {
        Object::Var(v) if cx.module.var(*v).ty.is_pointer() => None,
        // A library container (`std::vector`): its name maps the object, not its elements.
        Object::Var(v) if library_record(&cx.module.var(*v).ty) => None,
        // A member's data outside its class's methods has no name in scope to write.
        Object::Member(_) if !cx.module.function(func).is_method => None,
        _ => Some(name.to_string()),
    }
}

/// A record type of the C++ library (`std::vector<double>`, `std::array<float, 4>`).
fn library_record(ty: &crate::ir::Type) -> bool {
    let ty = ty.referent();
    matches!(&ty.kind, crate::ir::TypeKind::Record(name) if name.trim_start_matches("const ").starts_with("std::"))
}

/// Related locations explaining why a copy is stale.
pub fn why_related(cx: &Context, name: &str, why: &Option<Why>) -> Vec<Related> {
    let r = |span: Span, message: String| Related {
        span,
        message,
        header: None,
    };
    match why {
        Some(Why::Write { at, on_device }) => vec![r(
            *at,
            format!(
                "`{name}` written on the {} here",
                if *on_device { "device" } else { "host" }
            ),
        )],
        Some(Why::Dropped { item, write, inner }) => {
            let mut out = vec![r(*write, format!("`{name}` written on the device here"))];
            if let Some(inner) = inner {
                out.push(r(
                    *inner,
                    format!("this copy back does not happen: `{name}` is still mapped by an enclosing region (its reference count does not drop to zero)"),
                ));
            }
            out.push(r(
                *item,
                format!(
                    "the data is unmapped here without a copy back (line {})",
                    line(cx, *item)
                ),
            ));
            out
        }
        Some(Why::NoCopyBack { item, .. }) => vec![r(
            *item,
            format!("this copy back does not happen: `{name}` is still mapped by an enclosing region (its reference count does not drop to zero)"),
        )],
        Some(Why::Alloc { item }) => vec![r(
            *item,
            format!("`{name}` mapped here without copying its data to the device"),
        )],
        Some(Why::CopiedOver { item, write }) => vec![
            r(
                *write,
                format!("`{name}` written on the host here, while mapped; the device's copy is not updated"),
            ),
            r(
                *item,
                format!(
                    "this copy back (line {}) brings the device's old `{name}` over the host's write",
                    line(cx, *item)
                ),
            ),
        ],
        Some(Why::Overwritten { update, write }) => vec![
            r(*write, format!("`{name}` written on the device here")),
            r(
                *update,
                format!("this `target update to` copies the host's old `{name}` over the device's results"),
            ),
        ],
        Some(Why::LostScalar { write, kernel, .. }) => vec![
            r(*write, format!("`{name}` written on the device here")),
            r(
                Span {
                    start: kernel.start,
                    end: kernel.start,
                },
                format!("`{name}` is firstprivate in this kernel: not named in a map clause"),
            ),
        ],
        Some(Why::PartialCopyBack { item, entered, .. }) => vec![
            r(
                *entered,
                format!("`{name}` mapped here (line {})", line(cx, *entered)),
            ),
            r(
                *item,
                format!(
                    "only this part is copied back when the mapping ends (line {}): the device's writes to the rest are lost",
                    line(cx, *item)
                ),
            ),
        ],
        None => Vec::new(),
    }
}

/// Facts of one kind.
pub fn facts<'a>(
    cx: &'a Context,
    pick: impl Fn(&Fact) -> bool + 'a,
) -> impl Iterator<Item = &'a Fact> + 'a {
    cx.facts.facts.iter().filter(move |f| pick(f))
}

/// Iterations of host loop `l` of `func`: exact for `for (i = a; i < b; ...)` with constant
/// bounds, else an estimate of 100 (marked as such).
pub fn trips(cx: &Context, func: FuncId, l: crate::ir::cfg::LoopId) -> crate::check::Multiplier {
    let guess = crate::check::Multiplier {
        times: 100,
        estimated: true,
    };
    let Some(g) = cx.facts.cfgs[func].as_ref() else {
        return guess;
    };
    let f = cx.module.function(func);
    let values = cx.known_values(func);
    match crate::check::env::constant_trips_with(cx.module, f, g.loops[l].stmt, Some(&values)) {
        Some(times) => crate::check::Multiplier {
            times,
            estimated: false,
        },
        None => guess,
    }
}

/// How many times code in loop `inner` runs for one entry into loop `outer` around it (itself
/// included): the product of the trip counts of the loops from one to the other, estimated
/// when any of them is.
pub fn trips_within(
    cx: &Context,
    func: FuncId,
    inner: crate::ir::cfg::LoopId,
    outer: crate::ir::cfg::LoopId,
) -> crate::check::Multiplier {
    let mut out = crate::check::Multiplier {
        times: 1,
        estimated: false,
    };
    let Some(g) = cx.facts.cfgs[func].as_ref() else {
        return trips(cx, func, outer);
    };
    for l in g.loop_chain(inner) {
        let t = trips(cx, func, l);
        out.times = out.times.saturating_mul(t.times);
        out.estimated |= t.estimated;
        if l == outer {
            return out;
        }
    }
    trips(cx, func, outer)
}

/// "N B per copy" with the multiplier, for messages.
pub fn cost(bytes: Option<u64>, m: Option<crate::check::Multiplier>) -> String {
    let b = bytes.map_or("its data".to_string(), |b| format!("{b} B"));
    match m {
        Some(m) if m.estimated => {
            format!("{b} per iteration (about {} iterations assumed)", m.times)
        }
        Some(m) => format!("{b} per iteration, {} iterations", m.times),
        None => b,
    }
}

/// The outermost host loop around `l` (itself included) for which `ok` holds, walking out
/// while it keeps holding.
pub fn widest_loop(
    cx: &Context,
    func: FuncId,
    l: crate::ir::cfg::LoopId,
    ok: impl Fn(crate::ir::cfg::LoopId) -> bool,
) -> Option<crate::ir::cfg::LoopId> {
    let g = cx.facts.cfgs[func].as_ref()?;
    let mut best = None;
    for x in g.loop_chain(l) {
        if g.loops[x].exec == crate::ir::cfg::Exec::Device || !ok(x) {
            break;
        }
        best = Some(x);
    }
    best
}

/// A fix that changes the map type of the map item at `item` to `pick(its type)`, titled
/// `title(item text, new type)`; none when `pick` declines or the clause cannot be edited.
pub fn retype(
    cx: &Context,
    item: Span,
    pick: impl Fn(crate::pragma::MapType) -> Option<&'static str>,
    title: impl Fn(&str, &str) -> String,
) -> Vec<crate::check::Fix> {
    let Some(m) = cx
        .facts
        .mappings
        .iter()
        .find(|m| m.item.span == item && m.item.clause_items > 0)
    else {
        return Vec::new();
    };
    let Some(to) = pick(m.item.map_type) else {
        return Vec::new();
    };
    let directive = cx.module.directive(m.dir).directive.span;
    crate::check::fixes::change_map_type(
        cx.source,
        m.item.clause,
        m.item.clause_items,
        m.item.span,
        &m.item.text,
        directive,
        to,
    )
    .map_or_else(Vec::new, |edits| {
        crate::check::fixes::fix(title(&m.item.text, to), edits)
    })
}

/// Copies of `c`'s object whose usefulness the per-variable view cannot judge: a reduction
/// or private copy of the same directive, or sections of it moved by updates elsewhere.
pub fn partly_moved(cx: &Context, c: &crate::check::env::Copy) -> bool {
    let items = cx.items(c.dir);
    items.other.contains(&c.object)
        || cx.facts.copies.iter().any(|o| {
            o.func == c.func
                && o.object == c.object
                && o.kind == crate::check::env::CopyKind::Update
                && o.item_text.contains('[')
        })
}

/// Whether code of `f` inside `span` may give the variable `v` another value: an assignment,
/// an increment, its address taken, or a `swap` of it.
pub fn var_set_in(
    module: &crate::ir::Module,
    f: &crate::ir::Function,
    span: crate::ir::Span,
    v: crate::ir::VarId,
) -> bool {
    use crate::ir::{Callee, ExprKind, UnaryOp};
    let is_v = |e: crate::ir::ExprId| f.var_through_casts(e) == Some(v);
    f.exprs.iter().any(|e| {
        span.start <= e.span.start
            && e.span.end <= span.end
            && match &e.kind {
                ExprKind::Assign(_, l, _) => is_v(*l),
                ExprKind::Unary(op, x) => (op.is_increment() || *op == UnaryOp::AddrOf) && is_v(*x),
                ExprKind::Call { callee, args, .. } => {
                    let name = match callee {
                        Callee::Direct(c) => module.function(*c).name.as_str(),
                        Callee::Named(n) => n.as_str(),
                        Callee::Indirect(_) => "",
                    };
                    name.ends_with("swap") && args.iter().any(|a| is_v(*a))
                }
                _ => false,
            }
    })
}

/// Whether every variable `text` (a list item as written) names keeps its value through loop
/// `l` of `func`: declared before the loop and not set inside it. A clause moved out of the
/// loop must mean there what it meant on each iteration (`h[0:len]` with `h` allocated, or
/// `len` computed, inside the loop means something else on each one, and is not in scope
/// before it).
pub fn names_fixed_in_loop(
    cx: &Context,
    func: FuncId,
    l: crate::ir::cfg::LoopId,
    text: &str,
) -> bool {
    let Some(g) = cx.facts.cfgs[func].as_ref() else {
        return false;
    };
    let f = cx.module.function(func);
    let span = f.stmt(g.loops[l].stmt).span;
    let names = crate::text::scan::identifiers(text);
    let inside = |var: &crate::ir::Var| {
        var.span
            .is_some_and(|s| span.start <= s.start && s.end <= span.end)
    };
    // A pointer into a member's data declared in the loop (`Real_t *m = &dom.m_mass[0];`)
    // names the same storage on every iteration; the clause means the same before the loop
    // when an alias of the same name, declared before it, points there too (LULESH's
    // shadowed aliases).
    let member_aliases = std::cell::OnceCell::new();
    let shadows_invariant_alias = |v: crate::ir::VarId, var: &crate::ir::Var| {
        let (aliases, _) = member_aliases
            .get_or_init(|| crate::semantics::effects::member_alias_sets(cx.module, f));
        let Some(field) = aliases.get(&v) else {
            return false;
        };
        cx.module.vars.iter_enumerated().any(|(w, outer)| {
            w != v
                && outer.function == Some(func)
                && outer.name == var.name
                && outer.span.is_some_and(|s| s.end <= span.start)
                && aliases.get(&w) == Some(field)
                && !var_set_in(cx.module, f, span, w)
        })
    };
    cx.module.vars.iter_enumerated().all(|(v, var)| {
        var.function != Some(func)
            || !names.contains(&var.name.as_str())
            || if inside(var) {
                shadows_invariant_alias(v, var)
            } else {
                !var_set_in(cx.module, f, span, v)
            }
    })
}

#[cfg(test)]
mod tests {
    use super::member_access;
    use crate::ir::Span;

    fn of(text: &str) -> Option<(&str, &str, &str)> {
        member_access(
            text,
            Span {
                start: 0,
                end: text.len() as u32,
            },
        )
    }

    #[test]
    fn member_accesses_name_their_variable_and_member() {
        assert_eq!(of("g.y[5]"), Some(("g", "y", "g.y")));
        assert_eq!(of("dom->m_x[i]"), Some(("dom", "m_x", "dom->m_x")));
        assert_eq!(of("s . a"), Some(("s", "a", "s . a")));
        // Not a member access: a plain variable, an element, a call, a number.
        assert_eq!(of("a[3]"), None);
        assert_eq!(of("g"), None);
        assert_eq!(of("f(x).y"), None);
        assert_eq!(of("1.5"), None);
        assert_eq!(of("(*p).x"), None);
    }
}
