//! Finding `#pragma omp` lines in C/C++ source text.
//!
//! A byte-level scanner that skips comments and string, character and raw
//! string literals, follows backslash-newline continuations, and recognises
//! `#` as a directive only when nothing but whitespace and comments precede
//! it on its logical line. Every index at which the source is sliced is an
//! ASCII byte, so slicing is always on a char boundary.

use super::lexer::offset;
use super::{RawPragma, Span};

/// If a backslash-newline continuation starts at `i` (`\`, optional spaces
/// or tabs, then `\n`, `\r\n`, `\r` or the end of the text), returns the
/// index after it.
fn splice_end(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'\\') {
        return None;
    }
    let mut j = i + 1;
    while matches!(b.get(j), Some(b' ' | b'\t')) {
        j += 1;
    }
    match b.get(j) {
        None => Some(j),
        Some(b'\n') => Some(j + 1),
        Some(b'\r') => Some(if b.get(j + 1) == Some(&b'\n') {
            j + 2
        } else {
            j + 1
        }),
        Some(_) => None,
    }
}

fn is_ident_byte(c: u8) -> bool {
    c == b'_' || c == b'$' || c.is_ascii_alphanumeric() || c >= 0x80
}

/// Skips a `/* */` comment whose `/*` is at `i`; returns the index after it
/// (or the end of the text when unterminated).
fn skip_block_comment(b: &[u8], i: usize) -> usize {
    let mut j = i + 2;
    while j < b.len() {
        if b[j] == b'*' {
            // `*` \-newline `/` also closes the comment.
            let mut k = j + 1;
            while let Some(after) = splice_end(b, k) {
                if after == k {
                    break;
                }
                k = after;
            }
            if b.get(k) == Some(&b'/') {
                return k + 1;
            }
        }
        j += 1;
    }
    b.len()
}

/// Skips a `//` comment at `i` up to (not including) the newline that ends
/// the logical line.
fn skip_line_comment(b: &[u8], i: usize) -> usize {
    let mut j = i + 2;
    while j < b.len() {
        if let Some(after) = splice_end(b, j) {
            j = after;
            continue;
        }
        if b[j] == b'\n' {
            return j;
        }
        j += 1;
    }
    b.len()
}

/// Skips a quoted literal whose opening quote is at `i`. An unterminated
/// literal ends at the end of its logical line.
fn skip_quoted(b: &[u8], i: usize) -> usize {
    let quote = b[i];
    let mut j = i + 1;
    while j < b.len() {
        if let Some(after) = splice_end(b, j) {
            j = after;
            continue;
        }
        match b[j] {
            b'\\' => j += 2,
            b'\n' => return j,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// Skips a C++ raw string literal whose `"` is at `i`
/// (`R"delim( ... )delim"`); `None` when it is not well-formed.
fn skip_raw_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    let delim_start = j;
    while j < b.len() && j - delim_start <= 16 {
        match b[j] {
            b'(' => break,
            b' ' | b')' | b'\\' | b'\t' | b'\n' | b'\r' => return None,
            _ => j += 1,
        }
    }
    if b.get(j) != Some(&b'(') {
        return None;
    }
    let delim = &b[delim_start..j];
    let mut k = j + 1;
    while k < b.len() {
        if b[k] == b')'
            && b[k + 1..].starts_with(delim)
            && b.get(k + 1 + delim.len()) == Some(&b'"')
        {
            return Some(k + delim.len() + 2);
        }
        k += 1;
    }
    Some(b.len())
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
            i = skip_block_comment(b, i);
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
fn end_of_logical_line(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        if let Some(after) = splice_end(b, i) {
            i = after;
            continue;
        }
        match b[i] {
            b'\n' => {
                return if i > 0 && b[i - 1] == b'\r' { i - 1 } else { i };
            }
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_block_comment(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => i = skip_line_comment(b, i),
            b'"' | b'\'' => i = skip_quoted(b, i),
            _ => i += 1,
        }
    }
    b.len()
}

/// If a `#pragma omp` directive starts at the `#` at `i`, returns the end
/// of its logical line.
fn pragma_omp_at(b: &[u8], i: usize) -> Option<usize> {
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
    Some(end_of_logical_line(b, j))
}

pub(crate) fn scan(source: &str) -> Vec<RawPragma> {
    let b = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // Only whitespace and comments so far on this logical line.
    let mut line_start = true;
    while i < b.len() {
        if let Some(after) = splice_end(b, i) {
            i = after;
            continue;
        }
        let c = b[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => i = skip_line_comment(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_block_comment(b, i),
            b'#' if line_start => {
                line_start = false;
                match pragma_omp_at(b, i) {
                    Some(end) => {
                        // `i` and `end` sit on ASCII bytes (or the end).
                        if let Some(text) = source.get(i..end) {
                            out.push(RawPragma {
                                span: Span::new(offset(0, i), offset(0, end)),
                                text: text.to_string(),
                            });
                        }
                        i = end.max(i + 1);
                    }
                    None => i += 1,
                }
            }
            b'"' | b'\'' => {
                line_start = false;
                i = skip_quoted(b, i);
            }
            c if c.is_ascii_digit() => {
                line_start = false;
                i = skip_number(b, i);
            }
            c if is_ident_byte(c) => {
                line_start = false;
                let start = i;
                while b.get(i).copied().is_some_and(is_ident_byte) {
                    i += 1;
                }
                let word = &b[start..i];
                if b.get(i) == Some(&b'"') && matches!(word, b"R" | b"LR" | b"uR" | b"UR" | b"u8R")
                {
                    if let Some(after) = skip_raw_string(b, i) {
                        i = after;
                    }
                }
            }
            _ => {
                line_start = false;
                i += 1;
            }
        }
    }
    out
}

/// Skips a preprocessing number at `i` (so that a C++14 digit separator
/// `1'000` does not start a character literal).
fn skip_number(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while let Some(&c) = b.get(i) {
        let prev = b[i - 1];
        let exponent_sign = (c == b'+' || c == b'-') && matches!(prev, b'e' | b'E' | b'p' | b'P');
        let separator = c == b'\'' && b.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric());
        if exponent_sign || separator || c == b'.' || c == b'_' || c.is_ascii_alphanumeric() {
            i += 1;
        } else {
            break;
        }
    }
    i
}
