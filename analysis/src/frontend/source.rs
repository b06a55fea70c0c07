//! Questions about the raw text of the main file that libclang does not answer directly.
//! All offsets are byte offsets; every lookup is bounds-checked. Comments and literals are
//! found by the raw-text scanner ([`crate::text::scan`]).

use crate::ir::Span;
use crate::text::scan::{regions, Region, RegionKind};

pub struct SourceText {
    pub text: String,
    /// The comments and literals of `text`, in order.
    regions: Vec<Region>,
}

impl SourceText {
    pub fn new(text: String) -> Self {
        let regions = regions(&text);
        SourceText { text, regions }
    }

    /// The comment or literal holding byte `i`, if any.
    fn region_at(&self, i: usize) -> Option<&Region> {
        let n = self.regions.partition_point(|r| r.start <= i);
        self.regions[..n].last().filter(|r| i < r.end)
    }

    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// The text of a span (empty when out of range or not on char boundaries).
    pub fn text(&self, s: Span) -> &str {
        self.text
            .get(s.start as usize..s.end as usize)
            .unwrap_or_default()
    }

    /// Whether the identifier `kw` appears as a whole word between two offsets, outside
    /// comments.
    pub fn has_keyword_between(&self, from: u32, to: u32, kw: &str) -> bool {
        let b = self.bytes();
        let (from, to) = (from as usize, (to as usize).min(b.len()));
        let mut i = from;
        while i < to {
            if let Some(r) = self.region_at(i).filter(|r| r.kind == RegionKind::Comment) {
                i = r.end;
                continue;
            }
            if b[i..].starts_with(kw.as_bytes())
                && (i == 0 || !is_ident(b[i - 1]))
                && b.get(i + kw.len()).is_none_or(|c| !is_ident(*c))
                && i + kw.len() <= to
            {
                return true;
            }
            i += 1;
        }
        false
    }

    /// Offsets of the two top-level `;` in the header of the `for` statement spanning
    /// `start..end`, or None if the header is not plainly written there (e.g. a macro).
    pub fn for_header_semicolons(&self, start: u32, end: u32) -> Option<(u32, u32)> {
        let b = self.bytes();
        let (mut i, end) = (start as usize, (end as usize).min(b.len()));
        if !b.get(i..)?.starts_with(b"for") {
            return None;
        }
        i += 3;
        while i < end && b[i] != b'(' {
            if !b[i].is_ascii_whitespace() {
                return None;
            }
            i += 1;
        }
        let mut depth = 0i32;
        let mut semis = Vec::with_capacity(2);
        while i < end {
            if let Some(r) = self.region_at(i) {
                i = r.end;
                continue;
            }
            match b[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b';' if depth == 1 => semis.push(i as u32),
                _ => {}
            }
            i += 1;
        }
        match semis[..] {
            [a, b] => Some((a, b)),
            _ => None,
        }
    }

    /// Whether the text just before `offset`, skipping whitespace, ends with `tok`.
    pub fn preceded_by(&self, offset: u32, tok: &str) -> bool {
        let Some(before) = self.text.get(..offset as usize) else {
            return false;
        };
        before.trim_end().ends_with(tok)
    }
}

/// Replaces the path in clang's `(lambda at /path/file.cpp:3:9)` spellings by the file name, so
/// output does not depend on where the file lives.
pub fn strip_paths_in_spelling(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(" at ") {
        out.push_str(&rest[..i + 4]);
        rest = &rest[i + 4..];
        let end = rest.find(':').unwrap_or(0);
        let path = &rest[..end];
        if path.contains('/') {
            out.push_str(path.rsplit('/').next().unwrap_or(path));
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_for_header_semicolons() {
        let s = SourceText::new("for (int i = f(a;b); i < n; ++i) {}".into());
        // The `;` inside the call's parens is not top level... but it is inside `(`, depth 2.
        assert_eq!(s.for_header_semicolons(0, 36), Some((19, 26)));
        let s = SourceText::new("for(;;) x;".into());
        assert_eq!(s.for_header_semicolons(0, 10), Some((4, 5)));
        let s = SourceText::new("FOREACH(i) x;".into());
        assert_eq!(s.for_header_semicolons(0, 13), None);
    }

    #[test]
    fn keyword_outside_comments() {
        let s = SourceText::new("a; /* else */ // else\n else b;".into());
        assert!(s.has_keyword_between(0, 30, "else"));
        assert!(!s.has_keyword_between(0, 22, "else"));
        let s = SourceText::new("x; elsewhere();".into());
        assert!(!s.has_keyword_between(0, 15, "else"));
    }

    #[test]
    fn strips_paths_from_lambda_spellings() {
        assert_eq!(
            strip_paths_in_spelling("(lambda at /a/b/k.cpp:14:17)"),
            "(lambda at k.cpp:14:17)"
        );
        assert_eq!(strip_paths_in_spelling("int"), "int");
    }
}
