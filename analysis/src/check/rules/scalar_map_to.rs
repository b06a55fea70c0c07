//! OMP208: a read-only scalar mapped `to` where `firstprivate` does.

use super::common::finding;
use super::Context;
use crate::check::env::is_scalar_var;
use crate::check::Finding;
use crate::pragma::MapType;
use crate::text::TextEdit;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP208,
    name: "scalar-map-to",
    family: Family::Performance,
    severity: Severity::Hint,
    summary: "A scalar that a kernel only reads is mapped `to`; `firstprivate` passes it without a device allocation and copy.",
    doc: include_str!("scalar_map_to.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for m in &cx.facts.mappings {
        let d = &cx.module.directive(m.dir).directive;
        if m.item.map_type != MapType::To
            || m.item.clause_items == 0
            || !d.kind.is_offload_kernel()
            || !is_scalar_var(cx.module, &m.item.object)
            // (`p[0:n]` of a template's dependent `p` is a pointer's data, not a scalar.)
            || m.item.section.is_some()
            || !m.allocates
            || !seen.insert(m.item.span)
        {
            continue;
        }
        // Not if anything on the device writes it.
        let written = cx
            .facts
            .accesses
            .iter()
            .any(|a| a.func == m.func && a.object == m.item.object && a.on_device && a.write);
        if written {
            continue;
        }
        let mut x = finding(
            RULE.code,
            true,
            m.item.span,
            format!(
                "`{}` is a scalar the kernel only reads: `firstprivate({})` passes its value without allocating and copying device memory",
                m.item.text, m.item.text
            ),
        );
        x.bytes = m.item.bytes;
        if m.item.clause_items == 1 {
            x.fixes = crate::check::fixes::fix(
                format!("use `firstprivate({})`", m.item.text),
                vec![TextEdit {
                    start: m.item.clause.start,
                    end: m.item.clause.end,
                    text: format!("firstprivate({})", m.item.text),
                }],
            );
        }
        out.push(x);
    }
    out
}
