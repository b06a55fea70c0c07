//! Findings about code in a project header the file includes. Their positions are in the
//! header's band ([`crate::ir::header_band`]), which no consumer of a file's findings can
//! place: as clang and clangd do for a problem in an included file, the finding moves to the
//! main file's `#include` that brings the header in, and its text says where in the header.
//! Fixes that would edit the header are dropped (a file's fixes edit that file only).

use super::{Finding, Related};
use crate::ir::{Module, Span};

/// Moves every header position of `findings` (primary range and related locations) to the
/// line of the `#include` that brings its header in (the start of the file if libclang did
/// not say), naming the header's file and line in the message.
pub fn place_in_main_file(module: &Module, source: &str, findings: &mut [Finding]) {
    if module.headers.is_empty() {
        return;
    }
    for f in findings.iter_mut() {
        if let Some((span, place)) = include_line(module, source, f.span.start) {
            f.message = format!("in {place}: {}", f.message);
            f.span = span;
        }
        for r in &mut f.related {
            if let Some((span, place)) = include_line(module, source, r.span.start) {
                *r = Related {
                    span,
                    message: format!("{} ({place})", r.message),
                };
            }
        }
        f.fixes.retain(|fx| {
            fx.edits
                .iter()
                .all(|e| module.header_at(e.start).is_none() && module.header_at(e.end).is_none())
        });
    }
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
