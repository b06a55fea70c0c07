//! Inlay hints: at the end of each kernel's pragma line, what OpenMP's implicit rules give
//! it, written as the clauses that would do the same (`map(tofrom: a) firstprivate(n)`).

use super::analysis::FileAnalysis;
use super::convert::LineIndex;
use tower_lsp_server::ls_types::{InlayHint, InlayHintLabel, InlayHintTooltip, Range};

/// Hints for the kernels whose directive starts inside `range`.
pub fn hints(index: &LineIndex, fa: &FileAnalysis, range: Range) -> Vec<InlayHint> {
    let (start, end) = (index.offset(range.start), index.offset(range.end));
    fa.view()
        .kernels()
        .filter(|k| start <= k.span.start && k.span.start <= end)
        .filter_map(|k| {
            let imp = k.implicit.as_ref().filter(|i| !i.is_empty())?;
            let mut tooltip =
                String::from("Implicit data-sharing of this kernel (no clause names these).");
            if !imp.pointers.is_empty() {
                tooltip.push_str(
                    " Pointers are zero-length array sections: the data they point to must \
                     already be on the device.",
                );
            }
            Some(InlayHint {
                position: index.position(k.span.end),
                label: InlayHintLabel::String(format!("implicit: {}", imp.as_clauses())),
                kind: None,
                text_edits: None,
                tooltip: Some(InlayHintTooltip::String(tooltip)),
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
        })
        .collect()
}
