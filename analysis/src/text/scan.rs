//! The C/C++ raw-text scanner: where the comments and the string and character literals of a
//! source text are, before any preprocessing. It follows backslash-newline continuations
//! (also with blanks between the `\` and the line break, as clang accepts), C++11 raw strings
//! (`R"delim( ... )delim"`, with the `L`, `u`, `U` and `u8` prefixes) and C++14 digit
//! separators (`1'000` starts no character literal). An unterminated literal ends at the end
//! of its logical line; an unterminated comment at the end of the text.
//!
//! Every index the scanner returns sits on an ASCII byte or at the end of the text, so
//! slicing the text there is always on a character boundary.

/// What a [`Region`] of the text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    /// A `//` comment (up to, not including, the `\n` that ends its logical line) or a
    /// `/* */` comment, delimiters included.
    Comment,
    /// A string or character literal, quotes included (for a raw string from its `"`).
    Literal,
}

/// A comment or literal: the byte range `start..end` of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub kind: RegionKind,
    pub start: usize,
    pub end: usize,
}

/// The comments and literals of `text`, in order and disjoint; everything else is code.
pub fn regions(text: &str) -> Vec<Region> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut push = |kind, start, end| out.push(Region { kind, start, end });
    while i < b.len() {
        if let Some(after) = splice_end(b, i) {
            i = after;
            continue;
        }
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = line_comment_end(b, i);
                push(RegionKind::Comment, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = block_comment_end(b, i);
                push(RegionKind::Comment, i, end);
                i = end;
            }
            b'"' | b'\'' => {
                let end = quoted_end(b, i);
                push(RegionKind::Literal, i, end);
                i = end;
            }
            c if c.is_ascii_digit() => i = number_end(b, i),
            c if is_ident_byte(c) => {
                let start = i;
                while b.get(i).copied().is_some_and(is_ident_byte) {
                    i += 1;
                }
                let word = &b[start..i];
                if b.get(i) == Some(&b'"') && matches!(word, b"R" | b"LR" | b"uR" | b"UR" | b"u8R")
                {
                    if let Some(end) = raw_string_end(b, i) {
                        push(RegionKind::Literal, i, end);
                        i = end;
                    }
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// If a backslash-newline continuation starts at `i` (`\`, optional spaces or tabs, then
/// `\n`, `\r\n`, `\r` or the end of the text), returns the index after it.
pub fn splice_end(b: &[u8], i: usize) -> Option<usize> {
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

/// The identifiers of a C expression's text (`a[i * n:len]` gives `a`, `i`, `n`, `len`).
pub fn identifiers(text: &str) -> Vec<&str> {
    // Split at ASCII bytes that continue no identifier (non-ASCII ones do, as in clang).
    text.split(|c: char| c.is_ascii() && !is_ident_byte(c as u8))
        .filter(|w| w.chars().next().is_some_and(|c| !c.is_ascii_digit()))
        .collect()
}

/// A byte that continues an identifier (`$` and non-ASCII bytes included, as clang takes
/// them).
pub fn is_ident_byte(c: u8) -> bool {
    c == b'_' || c == b'$' || c.is_ascii_alphanumeric() || c >= 0x80
}

/// The end of the `/* */` comment whose `/*` is at `i` (the end of the text when it is
/// unterminated). `*`, a continuation, then `/` also closes it.
pub fn block_comment_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 2;
    while j < b.len() {
        if b[j] == b'*' {
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

/// The end of the `//` comment at `i`: the `\n` that ends its logical line.
fn line_comment_end(b: &[u8], i: usize) -> usize {
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

/// The end of the quoted literal whose opening quote is at `i`: after the closing quote, or
/// at the `\n` that ends its logical line when it is unterminated.
fn quoted_end(b: &[u8], i: usize) -> usize {
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

/// The end of the raw string literal whose `"` is at `i` (`"delim( ... )delim"`); `None`
/// when it is not well-formed (then the `"` opens an ordinary string).
fn raw_string_end(b: &[u8], i: usize) -> Option<usize> {
    let delim_start = i + 1;
    let mut j = delim_start;
    while j < b.len() && j - delim_start <= 16 {
        match b[j] {
            b'(' => break,
            b' ' | b')' | b'\\' | b'\t' | b'\n' | b'\r' | b'"' => return None,
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

/// The end of the preprocessing number at `i`, so that a digit separator (`1'000`) starts no
/// character literal.
fn number_end(b: &[u8], mut i: usize) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str) -> Vec<(RegionKind, &str)> {
        regions(text)
            .into_iter()
            .map(|r| (r.kind, &text[r.start..r.end]))
            .collect()
    }

    use RegionKind::{Comment, Literal};

    #[test]
    fn comments_and_literals() {
        assert_eq!(
            show("a = \"/* x */\"; // c\r\nb = '\"'; /* d\n e */ f"),
            vec![
                (Literal, "\"/* x */\""),
                (Comment, "// c\r"),
                (Literal, "'\"'"),
                (Comment, "/* d\n e */"),
            ]
        );
    }

    #[test]
    fn continuations() {
        // A `//` comment continued onto the next line, blanks after the `\` included.
        assert_eq!(show("// a \\  \nb\nc"), vec![(Comment, "// a \\  \nb")]);
        // `*`, continuation, `/` closes a block comment.
        assert_eq!(show("/* a *\\\n/ b"), vec![(Comment, "/* a *\\\n/")]);
        // An unterminated literal ends at its line's end.
        assert_eq!(show("\"abc\nd"), vec![(Literal, "\"abc")]);
    }

    #[test]
    fn raw_strings_and_digit_separators() {
        assert_eq!(
            show("s = R\"x(a \" // b)x\"; // c"),
            vec![(Literal, "\"x(a \" // b)x\""), (Comment, "// c")]
        );
        assert_eq!(show("u8R\"(\n)\""), vec![(Literal, "\"(\n)\"")]);
        assert_eq!(show("n = 1'000'000; // c"), vec![(Comment, "// c")]);
        assert_eq!(show("c = u8'a';"), vec![(Literal, "'a'")]);
        // Not raw: the prefix is part of a longer name.
        assert_eq!(show("XR\"(\" a"), vec![(Literal, "\"(\"")]);
    }
}
