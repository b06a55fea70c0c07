//! OMP105: a kernel reads device memory that was mapped without a copy and never written.

use super::common::{facts, finding, paths, why_related};
use super::Context;
use crate::check::env::{FactKind, Why};
use crate::check::{fixes, Finding};
use crate::pragma::MapType;

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    for f in facts(cx, |f| {
        matches!(
            &f.kind,
            FactKind::StaleDeviceRead {
                why: Some(Why::Alloc { .. }),
                ..
            }
        )
    }) {
        let FactKind::StaleDeviceRead {
            why: Some(Why::Alloc { item }),
            ..
        } = &f.kind
        else {
            continue;
        };
        let mut x = finding(
            "OMP105",
            f.certain,
            f.span,
            format!(
                "the kernel reads `{}`{} before anything wrote it on the device: it was mapped without copying its data",
                f.name,
                paths(f.certain)
            ),
        );
        x.related = why_related(cx, &f.name, &Some(Why::Alloc { item: *item }));
        if let Some(m) = cx.facts.mappings.iter().find(|m| m.item.span == *item) {
            let to = match m.item.map_type {
                MapType::Alloc => Some("to"),
                MapType::From => Some("tofrom"),
                _ => None,
            };
            let dspan = cx.module.directive(m.dir).directive.span;
            if let Some(edits) = to.and_then(|t| {
                fixes::change_map_type(
                    cx.source,
                    m.item.clause,
                    m.item.clause_items,
                    m.item.span,
                    &m.item.text,
                    dspan,
                    t,
                )
            }) {
                x.fixes = fixes::fix(
                    format!(
                        "copy `{}` to the device (`{}`)",
                        m.item.text,
                        to.unwrap_or("to")
                    ),
                    edits,
                );
            }
        }
        out.push(x);
    }
    out
}
