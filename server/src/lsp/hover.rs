//! Hover: on a `target` directive, what it copies on entry and exit (explicit and implicit,
//! with bytes); on a variable in a function with target directives, its type and size, the
//! directives that map it, and the state of its copies just before the access under the
//! cursor (present or not, reference count, which copy is valid).

use super::analysis::FileAnalysis;
use super::convert::LineIndex;
use super::lens;
use omplens_analysis::ide::{self, AccessState, DirectiveView, Transfer, Validity, When};
use omplens_analysis::ir::Storage;
use std::fmt::Write;
use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind};

pub fn hover(index: &LineIndex, fa: &FileAnalysis, offset: u32) -> Option<Hover> {
    let (text, span) = if let Some(d) = fa.view().directive_at(offset) {
        (directive(index, d), d.span)
    } else {
        let v = ide::var_at(&fa.module, fa.view(), offset)?;
        let access = fa.view().access_at(offset).filter(|a| a.var == Some(v.var));
        let span = access.map_or(omplens_analysis::ir::Span::new(offset, offset), |a| a.span);
        (variable(index, &v, access), span)
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(index.range(span.start, span.end)),
    })
}

/// Says that a hover comes from the analysis of an older version (a newer one is running);
/// its range is dropped, since the text may have moved under it.
pub fn mark_stale(h: &mut Hover, version: i32) {
    if let HoverContents::Markup(m) = &mut h.contents {
        m.value.push_str(&format!(
            "\n\n---\n_From the analysis of version {version}; the current text is being \
             analysed._"
        ));
    }
    h.range = None;
}

fn bytes(b: Option<u64>) -> String {
    match b {
        Some(b) => format!("{b} B"),
        None => "size not known statically".into(),
    }
}

fn transfer_line(t: &Transfer) -> String {
    let how = match (t.map_type, t.implicit) {
        (_, true) => "implicit `tofrom`".to_string(),
        (Some(m), false) => format!("`{m}`"),
        (None, false) => "`target update`".to_string(),
    };
    let when = if t.certain {
        ""
    } else {
        ", only when not already present"
    };
    format!("- `{}` ({how}): {}{when}", t.item, bytes(t.bytes))
}

fn directive(index: &LineIndex, d: &DirectiveView) -> String {
    let mut out = format!("**`#pragma omp {}`**", d.name);
    let line = index.position(d.span.start).line + 1;
    let _ = writeln!(out, " (line {line})\n");
    let section = |out: &mut String, title: &str, list: Vec<&Transfer>| {
        if list.is_empty() {
            return;
        }
        let _ = writeln!(out, "{title}:");
        for t in list {
            let _ = writeln!(out, "{}", transfer_line(t));
        }
        out.push('\n');
    };
    let of = |w: When, to: bool| -> Vec<&Transfer> {
        d.transfers
            .iter()
            .filter(|t| t.when == w && t.to_device == to)
            .collect()
    };
    section(
        &mut out,
        "Copies to the device on entry",
        of(When::Entry, true),
    );
    section(&mut out, "Copies to the device", of(When::Update, true));
    section(&mut out, "Copies to the host", of(When::Update, false));
    section(
        &mut out,
        "Copies back to the host on exit",
        of(When::Exit, false),
    );
    if !d.entered.is_empty() {
        let _ = writeln!(out, "Mapped without a copy in:");
        for e in &d.entered {
            let how = if e.implicit {
                "implicit".to_string()
            } else {
                format!("`{}`", e.map_type)
            };
            let why = if e.allocates {
                "device memory allocated, nothing copied"
            } else {
                "already present: the reference count goes up, nothing is copied"
            };
            let _ = writeln!(out, "- `{}` ({how}): {why}", e.item);
        }
        out.push('\n');
    }
    if d.transfers.is_empty() && d.entered.is_empty() {
        out.push_str("Moves no data here.\n\n");
    }
    if let Some(imp) = &d.implicit {
        if imp.is_empty() {
            out.push_str("Implicit data-sharing: none.\n");
        } else {
            let _ = writeln!(out, "Implicit data-sharing: `{}`", imp.as_clauses());
            if !imp.pointers.is_empty() {
                let _ = writeln!(
                    out,
                    "\nPointers are passed as zero-length array sections: their data must \
                     already be on the device."
                );
            }
        }
    }
    if d.is_kernel || !d.transfers.is_empty() {
        let t = d.traffic();
        let upto = if t.conditional { "up to " } else { "" };
        let _ = writeln!(
            out,
            "\nPer execution: {upto}{} to the device, {upto}{} to the host.",
            lens::one_way(t.to_device, t.copies_to_device, t.unknown_to_device),
            lens::one_way(t.to_host, t.copies_to_host, t.unknown_to_host),
        );
    }
    out
}

fn validity(v: Validity) -> &'static str {
    match v {
        Validity::Valid => "valid",
        Validity::Stale => "**stale**",
        Validity::Maybe => "valid on some paths, **stale** on others",
    }
}

fn variable(index: &LineIndex, v: &ide::VarInfo, access: Option<&AccessState>) -> String {
    let mut out = format!("**`{}`**: `{}`", v.name, v.type_spelling);
    if let Some(s) = v.size {
        let _ = write!(out, ", {s} B");
    }
    let storage = match v.storage {
        Storage::Global => "global",
        Storage::StaticGlobal => "static global",
        Storage::StaticLocal => "static local",
        Storage::Local => "local",
        Storage::Parameter => "parameter",
    };
    let _ = writeln!(out, " ({storage})\n");
    if !v.named_by.is_empty() || !v.implicit_in.is_empty() {
        let _ = writeln!(out, "Mapped by:");
        for (span, clause) in &v.named_by {
            let line = index.position(span.start).line + 1;
            let _ = writeln!(out, "- line {line}: `{clause}`");
        }
        for span in &v.implicit_in {
            let line = index.position(span.start).line + 1;
            let _ = writeln!(out, "- line {line}: the kernel, implicitly");
        }
        out.push('\n');
    } else {
        out.push_str("Named by no target directive of this function.\n\n");
    }
    if let Some(a) = access {
        let what = match (a.read, a.write) {
            (true, true) => "read and written",
            (false, true) => "written",
            _ => "read",
        };
        let place = if a.on_device {
            "on the device"
        } else {
            "on the host"
        };
        let _ = writeln!(out, "Here it is {what} {place}. Before this access:");
        let presence = match a.present() {
            Some(false) => "not present on the device".to_string(),
            Some(true) => format!("present on the device (reference count {})", counts(a)),
            None => format!("present on some paths (reference count {})", counts(a)),
        };
        let _ = writeln!(out, "- {presence}");
        let _ = writeln!(out, "- host copy: {}", validity(a.host));
        if a.present() != Some(false) {
            let _ = writeln!(out, "- device copy: {}", validity(a.device));
        }
    }
    out
}

fn counts(a: &AccessState) -> String {
    let v: Vec<String> = a
        .counts
        .iter()
        .map(|&c| if c >= 4 { "4+".into() } else { c.to_string() })
        .collect();
    v.join(" or ")
}
