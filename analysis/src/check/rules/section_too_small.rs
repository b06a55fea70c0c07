//! OMP106: a mapped array section is smaller than what the kernels touch.

use super::common::{finding, line};
use super::Context;
use crate::semantics::symbolic::pragma_poly;
use crate::check::env::Object;
use crate::check::{Finding, Related};
use crate::ir::{kernel_stmts, DirId, Function, StmtId, StmtKind, VarId};
use crate::pragma::DirectiveKind;
use crate::semantics::constants::substitute;
use crate::semantics::sections::{self, Section};
use crate::semantics::symbolic::Poly;
use crate::text::TextEdit;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP106,
    name: "section-too-small",
    family: Family::Correctness,
    severity: Severity::Error,
    summary: "A mapped array section is smaller than what the kernels touch.",
    doc: include_str!("section_too_small.md"),
    tags: &[],
};

/// Explicit sections `p[lo:len]` of pointer data or of a fixed-size array (`x[0:N / 2]` of
/// `double x[N]`), against the section the kernels that use them access (the kernel itself,
/// or the kernels inside a `target data` region).
pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for m in &cx.facts.mappings {
        let (Object::Var(v), Some((lower, Some(length)))) = (&m.item.object, &m.item.section)
        else {
            continue;
        };
        // Pointer data mapped on a kernel itself or by `target enter data`, one-dimensional
        // sections.
        let info = cx.module.directive(m.dir);
        let kind = info.directive.kind;
        let array = matches!(
            cx.module.var(*v).ty.kind,
            crate::ir::TypeKind::Array { len: Some(_), .. }
        );
        if !(cx.module.var(*v).ty.is_pointer() || array)
            || !(kind.is_offload_kernel() || kind == DirectiveKind::TargetEnterData)
            || m.item.text.matches('[').count() != 1
            || !seen.insert(m.item.span)
        {
            continue;
        }
        let Some(g) = cx.facts.cfgs[m.func].as_ref() else {
            continue;
        };
        // Known values (`int n = 4096;`, `#define N 4096`) let `n / 2` and `n` compare.
        let values = cx.known_values(m.func);
        let lower = match lower {
            Some(e) => pragma_poly(e, &values),
            None => Some(Poly::constant(0)),
        };
        let (Some(lower), Some(length)) = (lower, pragma_poly(length, &values)) else {
            continue;
        };
        let mapped = Section::new(substitute(&lower, &values), substitute(&length, &values));
        // A zero-length section (`p[:0]`) maps no storage: it finds the data an enclosing
        // mapping made present and attaches the pointer to it. Only when nothing can have
        // made it present (a local the function allocates, no mapping in force) are the
        // kernels' elements missing; a parameter or a global may be mapped by a caller.
        if mapped.length.as_const() == Some(0) {
            let local = cx.module.var(*v).storage == crate::ir::Storage::Local;
            if !(m.allocates && local) {
                continue;
            }
        }
        let func = cx.module.function(m.func);
        let info = cx.module.directive(m.dir);
        let stmts: Vec<_> = match info.governs {
            Some(_) if info.directive.kind.is_offload_kernel() => func
                .stmts
                .iter_enumerated()
                .filter(|(_, s)| matches!(s.kind, StmtKind::Omp { directive, .. } if directive == m.dir))
                .map(|(i, _)| i)
                .collect(),
            Some(body) => {
                let span = func.stmt(body).span;
                kernel_stmts(cx.module, func)
                    .into_iter()
                    .filter(|s| {
                        let k = func.stmt(*s).span;
                        span.start <= k.start && k.end <= span.end
                    })
                    .collect()
            }
            None if kind == DirectiveKind::TargetEnterData => {
                kernels_after_enter(cx, func, m.dir, *v)
            }
            None => continue,
        };
        if stmts.is_empty() {
            continue;
        }
        let used = if array {
            sections::accessed_elements(cx.module, m.func, g, *v, &stmts)
        } else {
            sections::accessed_section(cx.module, m.func, g, *v, &stmts)
        };
        let Some(used) = used else {
            continue;
        };
        let written = used.clone();
        let used = Section::new(
            substitute(&used.lower, &values),
            substitute(&used.length, &values),
        );
        if used.lower.as_const().is_some_and(|l| l < 0) {
            continue; // accesses guarded by conditions omplens does not follow
        }
        let below = used
            .lower
            .sub(&mapped.lower)
            .as_const()
            .is_some_and(|d| d < 0);
        let above = mapped
            .end()
            .sub(&used.end())
            .as_const()
            .is_some_and(|d| d < 0);
        if !(below || above) {
            continue;
        }
        // A kernel's item inside the section an enclosing `target data` region of the
        // function already mapped allocates nothing: the kernel reaches the region's storage
        // (`map(A[0:10])` around `map(A[3:7])` using `A[2]`). Judged by the region's section
        // then. (An item reaching outside it is an invalid extension, reported as before.)
        let within = |inner: &Section, outer: &Section| {
            outer.lower.sub(&inner.lower).as_const().is_some_and(|d| d <= 0)
                && inner.end().sub(&outer.end()).as_const().is_some_and(|d| d <= 0)
        };
        if !m.allocates
            && kind.is_offload_kernel()
            && enclosing_sections(cx, m, &values)
                .iter()
                .any(|s| within(&mapped, s) && within(&used, s))
        {
            continue;
        }
        let name = &cx.module.var(*v).name;
        let mut x = finding(
            RULE.code,
            true,
            m.item.span,
            format!(
                "`{}` maps `{name}[{mapped}]` but the kernels use `{name}[{used}]`: the elements outside the section are not on the device",
                m.item.text
            ),
        );
        x.related.push(Related {
            span: cx.module.directive(m.dir).directive.span,
            message: format!(
                "the kernels of line {} use `{name}[{used}]`",
                line(cx, m.item.span)
            ),
            header: None,
        });
        // The fix writes the kernels' section as the code names it (`x[0:n]`, not 4096).
        if let Some(u) = mapped
            .union(&used)
            .map(|u| if u == used { written } else { u })
        {
            if let Some(start) = m.item.text.find('[') {
                let text = format!("{}[{u}]", &m.item.text[..start]);
                x.fixes = crate::check::fixes::fix(
                    format!("map `{text}`"),
                    vec![TextEdit {
                        start: m.item.span.start,
                        end: m.item.span.end,
                        text,
                    }],
                );
            }
        }
        out.push(x);
    }
    out
}

/// The sections of `m`'s object that the `target data` regions around `m`'s construct (in
/// its function) map, where their bounds are known.
fn enclosing_sections(
    cx: &Context,
    m: &crate::check::env::Mapping,
    values: &crate::semantics::constants::Values,
) -> Vec<Section> {
    let func = cx.module.function(m.func);
    let at = cx.module.directive(m.dir).directive.span;
    cx.facts
        .mappings
        .iter()
        .filter(|r| r.func == m.func && r.item.object == m.item.object && r.dir != m.dir)
        .filter_map(|r| {
            let info = cx.module.directive(r.dir);
            if info.directive.kind != DirectiveKind::TargetData {
                return None;
            }
            let body = func.stmt(info.governs?).span;
            if !(body.start <= at.start && at.end <= body.end) {
                return None;
            }
            let (lower, length) = match &r.item.section {
                Some((lower, Some(length))) => (
                    match lower {
                        Some(e) => pragma_poly(e, values)?,
                        None => Poly::constant(0),
                    },
                    pragma_poly(length, values)?,
                ),
                // The whole of an array of known length (`map(tofrom: A)`).
                None => match (&r.item.object, &r.item.section) {
                    (Object::Var(v), None) => match cx.module.var(*v).ty.kind {
                        crate::ir::TypeKind::Array { len: Some(n), .. } => {
                            (Poly::constant(0), Poly::constant(n as i64))
                        }
                        _ => return None,
                    },
                    _ => return None,
                },
                _ => return None,
            };
            Some(Section::new(
                substitute(&lower, values),
                substitute(&length, values),
            ))
        })
        .collect()
}

/// The kernels of `func` that run on what `target enter data` `dir` mapped: those after it in
/// the function, up to the first `target exit data` after it, that do not map `v` themselves
/// (a kernel's own map of `v` is judged on its own).
fn kernels_after_enter(cx: &Context, func: &Function, dir: DirId, v: VarId) -> Vec<StmtId> {
    let start = cx.module.directive(dir).directive.span.end;
    let end = cx
        .module
        .directives
        .iter()
        .filter(|d| {
            d.function == cx.module.directive(dir).function
                && d.directive.kind == DirectiveKind::TargetExitData
                && d.directive.span.start > start
        })
        .map(|d| d.directive.span.start)
        .min()
        .unwrap_or(u32::MAX);
    let maps_v = |s: StmtId| {
        let StmtKind::Omp { directive, .. } = func.stmt(s).kind else {
            return false;
        };
        cx.facts
            .mappings
            .iter()
            .any(|m| m.dir == directive && m.item.object == Object::Var(v))
    };
    kernel_stmts(cx.module, func)
        .into_iter()
        .filter(|s| {
            let k = func.stmt(*s).span;
            start <= k.start && k.end <= end && !maps_v(*s)
        })
        .collect()
}
