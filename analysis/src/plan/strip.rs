//! `omplens fix --replace`: the edits that remove a file's own data-mapping constructs
//! (`target data`, `target enter/exit data`, `target update` lines, and `map` clauses on
//! kernels) so fresh ones can be synthesized.

use crate::ir::Module;
use crate::text::TextEdit;

/// Start of the line holding `offset`.
fn line_start(src: &str, offset: usize) -> usize {
    src[..offset].rfind('\n').map_or(0, |i| i + 1)
}

/// Just past the newline ending the line holding `offset` (or the end of the text).
fn line_end(src: &str, offset: usize) -> usize {
    src[offset..]
        .find('\n')
        .map_or(src.len(), |i| offset + i + 1)
}

/// Edits deleting every data-mapping directive line and every `map` clause of `module`'s main
/// file (`source` is its text). A directive that governs a block leaves the block in place.
pub fn strip_mappings(module: &Module, source: &str) -> Vec<TextEdit> {
    let mut edits = Vec::new();
    for d in &module.directives {
        let dir = &d.directive;
        let (start, end) = (dir.span.start as usize, dir.span.end as usize);
        if end > source.len()
            || start > end
            || !source.is_char_boundary(start)
            || !source.is_char_boundary(end)
        {
            continue;
        }
        if dir.kind.is_data_mapping() {
            let ls = line_start(source, start);
            let only_space_before = source[ls..start].trim().is_empty();
            let le = line_end(source, end);
            let rest = source[end..le].trim();
            let only_comment_after =
                rest.is_empty() || rest.starts_with("//") || rest.starts_with("/*");
            if only_space_before && only_comment_after {
                edits.push(TextEdit {
                    start: ls as u32,
                    end: le as u32,
                    text: String::new(),
                });
            } else {
                edits.push(TextEdit {
                    start: start as u32,
                    end: end as u32,
                    text: String::new(),
                });
            }
        } else if dir.kind.is_offload_kernel() {
            for c in &dir.clauses {
                if c.name() != "map" {
                    continue;
                }
                // The clause and the blanks before it.
                let mut s = c.span.start as usize;
                while s > 0 && matches!(source.as_bytes()[s - 1], b' ' | b'\t') {
                    s -= 1;
                }
                edits.push(TextEdit {
                    start: s as u32,
                    end: c.span.end,
                    text: String::new(),
                });
            }
        }
    }
    edits.sort_by_key(|e| (e.start, e.end));
    // Overlaps cannot happen between distinct directives; keep the first of any that do.
    let mut out: Vec<TextEdit> = Vec::new();
    for e in edits {
        if out.last().is_some_and(|l| e.start < l.end) {
            continue;
        }
        out.push(e);
    }
    out
}
