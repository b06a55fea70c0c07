//! OMP103: a kernel uses the data behind a pointer that is not mapped.

use super::common::{demote_unknown, facts, finding, paths};
use super::Context;
use crate::check::env::FactKind;
use crate::check::{Finding, Fix, Related};
use crate::ir::FuncId;
use crate::plan::{FunctionPlan, Plan};
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP103,
    name: "unmapped-pointer",
    family: Family::Correctness,
    severity: Severity::Error,
    summary: "A kernel uses the data behind a pointer that is not mapped: the pointer is passed as a zero-length section and the device has no copy of its data.",
    doc: include_str!("unmapped_pointer.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = copied_pointers(cx);
    for f in facts(cx, |f| matches!(f.kind, FactKind::Unmapped { .. })) {
        let FactKind::Unmapped { kernel, member } = &f.kind else {
            continue;
        };
        let kernel = *kernel;
        if let Some(member) = member {
            let mut x = finding(
                RULE.code,
                false,
                f.span,
                format!(
                    "the kernel uses the data behind `{member}`, a pointer held in a struct, but no clause maps it through the member (`{member}[0:n]`): mapping `{}` copies the pointer, not its data, so the kernel follows a host address (unless `{member}` holds a device address)",
                    f.name
                ),
            );
            x.related.push(Related {
                span: cx.module.directive(kernel).directive.span,
                message: format!("kernel without a map clause for `{member}[...]`"),
                header: None,
            });
            // (Already a warning; the struct's own note, "mapping `t` attaches no member",
            // would only repeat this.)
            out.push(x);
            continue;
        }
        // A parameter is judged by what its callers in this file pass.
        let callers = match &f.object {
            crate::check::env::Object::Var(v)
                if cx.module.var(*v).storage == crate::ir::Storage::Parameter =>
            {
                " (as the callers in this file pass it)"
            }
            _ => "",
        };
        // `firstprivate(p)`: its copy is translated like a zero-length section's pointer.
        let firstprivate = cx
            .module
            .directive(kernel)
            .directive
            .clause_items()
            .any(|(c, it)| {
                matches!(c.kind, crate::pragma::ClauseKind::Firstprivate(_))
                    && it.base.name == f.name
            });
        let passed = if firstprivate {
            "`firstprivate` copies the pointer, which points to device data only where that is present,"
        } else {
            "the pointer is passed as a zero-length array section"
        };
        let mut x = finding(
            RULE.code,
            f.certain,
            f.span,
            format!(
                "the kernel uses the data behind `{}`{} but it is not mapped{callers}: {passed} and the device has no copy of what it points to",
                f.name,
                paths(f.certain)
            ),
        );
        x.related.push(Related {
            span: cx.module.directive(kernel).directive.span,
            message: format!("kernel without a map clause for `{}`", f.name),
            header: None,
        });
        // Offered only where `omplens fix` would map this data: not where it takes the
        // programmer's own mapping as covering it (mapped on some paths only).
        if plan_maps(cx, f.func, &f.object, kernel) {
            x.fixes = synthesized_fix(cx, f.func);
        }
        demote_unknown(&mut x, f, |at| cx.module.line_ref(at.start));
        out.push(x);
    }
    out
}

/// Whether the mappings `omplens fix` writes for `func` map `object`: in its `target data`
/// region, or on `kernel` itself.
fn plan_maps(cx: &Context, func: FuncId, object: &crate::check::env::Object, kernel: crate::ir::DirId) -> bool {
    let plan = cx.plan();
    let Some(fp) = plan.functions.iter().find(|p| p.func == func) else {
        return false;
    };
    let in_region = fp
        .region
        .as_ref()
        .is_some_and(|r| r.items.iter().any(|i| &i.object == object));
    in_region
        || fp
            .kernels
            .iter()
            .filter(|k| k.directive == kernel)
            .any(|k| k.maps.iter().any(|i| &i.object == object))
}

/// The mappings `omplens fix` would write for function `func`, as one fix (none when the
/// synthesis reports an error for that function).
pub fn synthesized_fix(cx: &Context, func: FuncId) -> Vec<Fix> {
    let plan = cx.plan();
    let Some(fp) = plan.functions.iter().find(|p| p.func == func) else {
        return Vec::new();
    };
    let span = cx.module.function(func).span.unwrap_or_default();
    let blocked = plan.diagnostics.iter().any(|d| {
        d.severity == crate::ir::Severity::Error
            && span.start <= d.span.start
            && d.span.end <= span.end
    });
    if blocked {
        return Vec::new();
    }
    let one = Plan {
        functions: vec![FunctionPlan::clone(fp)],
        diagnostics: Vec::new(),
    };
    let edits = one.edits(cx.module, cx.source);
    crate::check::fixes::fix(
        format!(
            "write the data mappings of `{}` (as `omplens fix`)",
            fp.name
        ),
        edits,
    )
}

/// A kernel that dereferences a pointer its own clause copies as a pointer: `map(tofrom: p)`
/// maps the pointer variable (8 bytes) and `firstprivate(p)` copies its value; neither
/// makes a device copy of the data nor attaches to one, so on a GPU the kernel follows a host
/// address. (On the host "device" of the oracle it works by accident.)
fn copied_pointers(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    for f in facts(cx, |f| matches!(f.kind, FactKind::PointerCopied { .. })) {
        let FactKind::PointerCopied { kernel, clause } = &f.kind else {
            continue;
        };
        let mut x = finding(
            RULE.code,
            true,
            f.span,
            format!(
                "the kernel uses the data behind `{0}`, but `{clause}` copies the pointer, not \
                 its data: the device gets the host address and no copy of what it points to \
                 (map a section, `map(to: {0}[0:n])`, or give a device address with \
                 `is_device_ptr({0})`)",
                f.name
            ),
        );
        x.related.push(Related {
            span: cx.module.directive(*kernel).directive.span,
            message: format!("`{clause}` on this construct copies the pointer only"),
            header: None,
        });
        demote_unknown(&mut x, f, |at| cx.module.line_ref(at.start));
        out.push(x);
    }
    out
}
