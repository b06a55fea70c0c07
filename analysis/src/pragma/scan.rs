//! Finding `#pragma omp` lines in C/C++ source text.
//!
//! Comments and string, character and raw string literals come from the raw-text scanner
//! ([`crate::text::scan`]); this module recognises `#` as a directive only when nothing but
//! whitespace and comments precede it on its logical line, and follows backslash-newline
//! continuations inside `# pragma omp`. Every index at which the source is sliced is an
//! ASCII byte, so slicing is always on a char boundary.

use super::lexer::offset;
use super::{RawPragma, Span};
use crate::text::scan::{block_comment_end, is_ident_byte, regions, splice_end, Region};

/// The comments and literals of the text, visited in order as the scan moves forward.
struct Regions {
    all: Vec<Region>,
    next: usize,
}

impl Regions {
    /// The region starting at `i`, if any; regions the scan has passed are dropped.
    fn at(&mut self, i: usize) -> Option<Region> {
        while self.all.get(self.next).is_some_and(|r| r.start < i) {
            self.next += 1;
        }
        self.all.get(self.next).filter(|r| r.start == i).copied()
    }
}

/// Skips horizontal whitespace, continuations and block comments.
fn skip_space(b: &[u8], mut i: usize) -> usize {
    loop {
        if let Some(after) = splice_end(b, i) {
            if after == i {
                return i;
            }
            i = after;
        } else if matches!(b.get(i), Some(b' ' | b'\t' | b'\x0b' | b'\x0c')) {
            i += 1;
        } else if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'*') {
            i = block_comment_end(b, i);
        } else {
            return i;
        }
    }
}

/// Reads an identifier at `i` (continuations may split it).
fn read_word(b: &[u8], mut i: usize) -> (Vec<u8>, usize) {
    let mut word = Vec::new();
    loop {
        if let Some(after) = splice_end(b, i) {
            if after == i || after >= b.len() {
                return (word, after.max(i));
            }
            i = after;
        } else if b.get(i).copied().is_some_and(is_ident_byte) {
            word.push(b[i]);
            i += 1;
        } else {
            return (word, i);
        }
    }
}

/// End of the logical line starting at or before `i`: the index of the
/// terminating `\n` (or of the `\r` of a `\r\n`), or the end of the text.
/// Comments and literals are skipped so that a `/* */` spanning lines
/// extends the line.
fn end_of_logical_line(b: &[u8], regions: &mut Regions, mut i: usize) -> usize {
    while i < b.len() {
        if let Some(r) = regions.at(i) {
            i = r.end.max(i + 1);
            continue;
        }
        if let Some(after) = splice_end(b, i) {
            i = after;
            continue;
        }
        if b[i] == b'\n' {
            return if i > 0 && b[i - 1] == b'\r' { i - 1 } else { i };
        }
        i += 1;
    }
    b.len()
}

/// If a `#pragma omp` directive starts at the `#` at `i`, returns the end
/// of its logical line.
fn pragma_omp_at(b: &[u8], regions: &mut Regions, i: usize) -> Option<usize> {
    let j = skip_space(b, i + 1);
    let (word, j) = read_word(b, j);
    if word != b"pragma" {
        return None;
    }
    let j = skip_space(b, j);
    let (word, j) = read_word(b, j);
    if word != b"omp" {
        return None;
    }
    Some(end_of_logical_line(b, regions, j))
}

pub(crate) fn scan(source: &str) -> Vec<RawPragma> {
    let b = source.as_bytes();
    let mut regions = Regions {
        all: regions(source),
        next: 0,
    };
    let mut out = Vec::new();
    let mut i = 0;
    // Only whitespace and comments so far on this logical line.
    let mut line_start = true;
    while i < b.len() {
        if let Some(r) = regions.at(i) {
            if r.kind == crate::text::scan::RegionKind::Literal {
                line_start = false;
            }
            i = r.end.max(i + 1);
            continue;
        }
        if let Some(after) = splice_end(b, i) {
            i = after;
            continue;
        }
        match b[i] {
            b'\n' => line_start = true,
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {}
            b'#' if line_start => {
                line_start = false;
                if let Some(end) = pragma_omp_at(b, &mut regions, i) {
                    // `i` and `end` sit on ASCII bytes (or the end).
                    if let Some(text) = source.get(i..end) {
                        out.push(RawPragma {
                            span: Span::new(offset(0, i), offset(0, end)),
                            text: text.to_string(),
                        });
                    }
                    i = end.max(i + 1);
                    continue;
                }
            }
            _ => line_start = false,
        }
        i += 1;
    }
    out
}
