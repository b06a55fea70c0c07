//! OMP104: a kernel's write to a `firstprivate` scalar is lost; the host reads the old value.

use super::common::{demote_unknown, facts, finding, line, paths, why_related};
use super::Context;
use crate::check::env::{FactKind, Why};
use crate::check::{fixes, Finding};
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP104,
    name: "lost-scalar-write",
    family: Family::Correctness,
    severity: Severity::Error,
    summary: "A kernel writes a scalar that is implicitly `firstprivate`; the host reads the scalar afterwards and sees the old value.",
    doc: include_str!("lost_scalar_write.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    for f in facts(cx, |f| {
        matches!(
            &f.kind,
            FactKind::StaleHostRead {
                why: Some(Why::LostScalar { .. })
            } | FactKind::StaleDeviceRead {
                why: Some(Why::LostScalar { .. }),
                ..
            }
        )
    }) {
        let (
            FactKind::StaleHostRead {
                why:
                    Some(Why::LostScalar {
                        write,
                        kernel,
                        lastprivate,
                    }),
            }
            | FactKind::StaleDeviceRead {
                why:
                    Some(Why::LostScalar {
                        write,
                        kernel,
                        lastprivate,
                    }),
                ..
            }
        ) = &f.kind
        else {
            continue;
        };
        // A later kernel that copies the scalar in reads the host's old value too.
        let reader = if matches!(f.kind, FactKind::StaleDeviceRead { .. }) {
            "by a kernel, copied from the host,"
        } else {
            "on the host"
        };
        // A combined construct's `lastprivate` scalar is mapped `tofrom` by OpenMP: the
        // program is right, and only compilers that keep the scalar firstprivate (clang-19
        // does) lose the value. A warning that names the compiler.
        let (certain, cause) = if *lastprivate {
            (
                false,
                " as `lastprivate`: OpenMP maps a `lastprivate` scalar of a combined `target` construct `tofrom`, but clang-19 keeps it firstprivate and the host sees its old value",
            )
        } else {
            (
                f.certain,
                ", but the kernel's write is lost: a scalar not named in a map clause is firstprivate",
            )
        };
        let message = format!(
            "`{}` is read {reader}{} after the kernel at line {} wrote it{cause}",
            f.name,
            paths(f.certain),
            line(cx, *kernel)
        );
        let mut x = finding(RULE.code, certain, f.span, message);
        x.related = why_related(
            cx,
            &f.name,
            &Some(Why::LostScalar {
                write: *write,
                kernel: *kernel,
                lastprivate: *lastprivate,
            }),
        );
        if let Some(d) = cx
            .module
            .directives
            .iter()
            .find(|d| d.directive.span.start == kernel.start)
        {
            let edits = fixes::append(
                cx.source,
                d.directive.span,
                fixes::clause("map", Some("tofrom"), &f.name),
            );
            x.fixes = fixes::fix(
                format!("add `map(tofrom: {})` to the kernel", f.name),
                edits,
            );
        }
        demote_unknown(&mut x, f, |at| cx.module.line_ref(at.start));
        out.push(x);
    }
    out
}
