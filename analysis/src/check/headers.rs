//! Findings about code in a project header the file includes. Their positions are in the
//! header's band ([`crate::ir::header_band`]), which no consumer of a file's findings can
//! place: as clang and clangd do for a problem in an included file, the finding moves to the
//! main file's `#include` that brings the header in, and its text says where in the header.
//! Fixes that would edit the header are dropped (a file's fixes edit that file only).

use super::{Finding, HeaderPlace, Related};
use crate::ir::{Module, Span};

/// Moves every header position of `findings` (primary range and related locations) to the
/// line of the `#include` that brings its header in (the start of the file if libclang did
/// not say), naming the header's file and line in the message.
pub fn place_in_main_file(module: &Module, source: &str, findings: &mut [Finding]) {
    if module.headers.is_empty() {
        return;
    }
    for f in findings.iter_mut() {
        for r in &mut f.related {
            if let Some((span, place)) = include_line(module, source, r.span.start) {
                // (A message that says its line already says where: `… (line 2 of `k.h`)`.)
                let said = format!("({place})");
                let message = if r.message.ends_with(&said) {
                    r.message.clone()
                } else {
                    format!("{} {said}", r.message)
                };
                *r = Related {
                    span,
                    message,
                    header: header_place(module, r.span),
                };
            }
        }
        if let Some((span, place)) = include_line(module, source, f.span.start) {
            // As clangd does for a problem in an included file: the first related location
            // is the place in the header.
            f.related.insert(
                0,
                Related {
                    span,
                    message: format!("the code in `{}`", file_of(module, f.span)),
                    header: header_place(module, f.span),
                },
            );
            f.message = format!("in {place}: {}", f.message);
            f.span = span;
        }
        f.fixes.retain(|fx| {
            fx.edits
                .iter()
                .all(|e| module.header_at(e.start).is_none() && module.header_at(e.end).is_none())
        });
    }
}

/// `span` (in a header's band) as a range of that header.
fn header_place(module: &Module, span: Span) -> Option<HeaderPlace> {
    let (header, start) = module.header_at(span.start)?;
    let end = match module.header_at(span.end) {
        Some((h, end)) if std::sync::Arc::ptr_eq(h, header) => end.max(start),
        _ => start,
    };
    Some(HeaderPlace {
        header: header.clone(),
        span: Span::new(start, end),
    })
}

/// The name of the header `span` is in.
fn file_of(module: &Module, span: Span) -> &str {
    module.header_at(span.start).map_or("", |(h, _)| h.name())
}

/// For a position in a header: the main file's `#include` line that brings it in (without
/// its line ending) and "line L of `h.h`".
fn include_line(module: &Module, source: &str, offset: u32) -> Option<(Span, String)> {
    let (header, at) = module.header_at(offset)?;
    let place = format!(
        "line {} of `{}`",
        header.lines.line_col(at).0,
        header.name()
    );
    let span = match header.included_at {
        Some(at) => {
            let line = module.lines.line(at);
            let start = module.lines.line_start(line).unwrap_or(0);
            Span::new(start, module.lines.line_end(source, line))
        }
        None => Span::new(0, 0),
    };
    Some((span, place))
}
