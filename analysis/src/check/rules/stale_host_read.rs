//! OMP101: the host reads data whose valid copy is on the device.

use super::common::{demote_other_member, demote_unknown, facts, other_member_write, finding, item_text, paths, retype, why_related, widest_loop};
use super::Context;
use crate::check::env::{FactKind, Why};
use crate::check::{fixes, Finding};
use crate::ir::Span;
use crate::rewrite::Side;
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP101,
    name: "stale-host-read",
    family: Family::Correctness,
    severity: Severity::Error,
    summary: "The host reads data whose valid copy is on the device: no copy back reaches the read (including a `from` that does not copy because the data is still present).",
    doc: include_str!("stale_host_read.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    // One finding per stale copy: its first read in source order.
    let mut seen = std::collections::BTreeSet::new();
    let mut reads: Vec<_> = facts(
        cx,
        |f| matches!(&f.kind, FactKind::StaleHostRead { why } if !matches!(why, Some(Why::LostScalar { .. }))),
    )
    .collect();
    reads.sort_by_key(|f| (f.span.start, !f.certain));
    for f in reads {
        let FactKind::StaleHostRead { why } = &f.kind else {
            continue;
        };
        if !seen.insert((f.func, f.object.clone(), format!("{why:?}"))) {
            continue;
        }
        let detail = match why {
            Some(Why::NoCopyBack { .. }) => {
                ": the copy back at the end of its mapping did not happen, because an enclosing mapping keeps it on the device"
            }
            Some(Why::Dropped { inner: None, .. }) => ": the device wrote it and it was unmapped without a copy back",
            Some(Why::Dropped { inner: Some(_), .. }) => ": the device wrote it, its inner copy back did not happen (an enclosing region still held it), and that region unmapped it without one",
            Some(Why::Alloc { .. }) => ": it was copied back from device memory that nothing initialized",
            Some(Why::Overwritten { .. }) => {
                ": a `target update to` copied the host's old data over the device's results where `from` was meant"
            }
            Some(Why::PartialCopyBack { .. }) => {
                ": the exit that unmapped it copied back a smaller section than the one mapped"
            }
            _ => ": no copy back reaches this read",
        };
        let message = match why {
            Some(Why::CopiedOver { item, write }) => format!(
                "`{}` is read on the host{} after the copy back at line {} brought the device's old copy over the host's write at line {}: that write is lost",
                f.name,
                paths(f.certain),
                cx.module.line_ref(item.start),
                cx.module.line_ref(write.start),
            ),
            _ => format!(
                "`{}` is read on the host{} while its valid copy is on the device{detail}",
                f.name,
                paths(f.certain)
            ),
        };
        let mut x = finding(RULE.code, f.certain, f.span, message);
        x.related = why_related(cx, &f.name, why);
        x.fixes = fix(cx, f, why);
        if let Some(written) = other_member_write(cx, f.span, why) {
            demote_other_member(&mut x, &f.name, &written);
        }
        demote_unknown(&mut x, f, |at| cx.module.line_ref(at.start));
        out.push(x);
    }
    out
}

fn fix(cx: &Context, f: &crate::check::env::Fact, why: &Option<Why>) -> Vec<crate::check::Fix> {
    if let Some(Why::Dropped { item, .. }) = why {
        return retype(
            cx,
            *item,
            |t| match t {
                crate::pragma::MapType::To => Some("tofrom"),
                crate::pragma::MapType::Alloc => Some("from"),
                _ => None,
            },
            |text, to| format!("map `{text}` with `{to}`"),
        );
    }
    if let Some(Why::Overwritten { update, .. }) = why {
        return reverse_update(cx, *update);
    }
    // (Whether the host's write or the device's data was meant to survive is the
    // programmer's call: no fix.)
    if let Some(Why::CopiedOver { .. }) = why {
        return Vec::new();
    }
    if !f.present {
        return Vec::new();
    }
    let Some(text) = item_text(cx, f.func, &f.object, &f.name) else {
        return Vec::new();
    };
    let edits = fixes::standalone(
        cx.module,
        cx.source,
        f.func,
        hoisted(cx, f),
        Side::Before,
        "target update",
        fixes::clause("from", None, &text),
    );
    fixes::fix(
        format!("insert `target update from({text})` before the read"),
        edits,
    )
}

/// Turns the `to` clause holding only `item` into `from`: `update to(v)` → `update from(v)`.
fn reverse_update(cx: &Context, item: Span) -> Vec<crate::check::Fix> {
    let src = cx.source.as_bytes();
    let before = cx.source[..item.start as usize].trim_end();
    let after = cx.source[item.end as usize..].trim_start();
    if !before.ends_with('(') || !after.starts_with(')') {
        return Vec::new(); // the clause names other items too
    }
    let name = before[..before.len() - 1].trim_end();
    let start = name.len().saturating_sub(2);
    let at_word_start =
        start == 0 || !(src[start - 1].is_ascii_alphanumeric() || src[start - 1] == b'_');
    if !name.ends_with("to") || !at_word_start {
        return Vec::new();
    }
    let text = &cx.source[item.start as usize..item.end as usize];
    fixes::fix(
        format!("copy `{text}` from the device: `to` → `from`"),
        vec![crate::text::TextEdit {
            start: start as u32,
            end: name.len() as u32,
            text: "from".into(),
        }],
    )
}

/// Where the update goes: before the read's statement, or before the outermost host loop
/// around it in which the device neither reads nor writes the data (one copy, not one per
/// iteration).
fn hoisted(cx: &Context, f: &crate::check::env::Fact) -> crate::ir::StmtId {
    let Some(g) = cx.facts.cfgs[f.func].as_ref() else {
        return f.stmt;
    };
    let Some(l0) = g
        .nodes()
        .find(|(_, n)| n.stmt == f.stmt)
        .and_then(|(b, _)| g.block(b).loop_id)
    else {
        return f.stmt;
    };
    let quiet = |l| {
        cx.facts
            .accesses_in_loop(f.func, l, &f.object)
            .all(|a| !a.on_device)
    };
    match widest_loop(cx, f.func, l0, quiet) {
        Some(l) => g.loops[l].stmt,
        None => f.stmt,
    }
}
