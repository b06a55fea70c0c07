//! Raw-text questions the rewriter asks about a C/C++ file: which bytes are code, comment or
//! literal; lines and their indentation; the file's indent unit, line ending and the column
//! its `#pragma omp` lines are written at.

use crate::text::scan::{regions, RegionKind};
use crate::text::LineIndex;
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

/// What a byte of the source is part of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Code,
    Comment,
    /// String or character literal (raw strings included).
    Literal,
}

/// The source with a byte classification and a line index.
pub(super) struct SourceText<'a> {
    pub src: &'a str,
    pub bytes: &'a [u8],
    scan: Arc<Scan>,
    /// `"\r\n"` when most lines end that way, else `"\n"`.
    pub nl: &'static str,
}

/// What one pass over the whole text finds, and the file-wide style questions answered from
/// it. Shared by every render of the same text (see [`SourceText::cached`]).
pub(super) struct Scan {
    kind: Vec<Kind>,
    lines: LineIndex,
    nl: &'static str,
    pub unit: OnceLock<String>,
    pub col0: OnceLock<bool>,
}

impl Scan {
    fn of(src: &str) -> Scan {
        let bytes = src.as_bytes();
        let (mut crlf, mut lf) = (0usize, 0usize);
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                if i > 0 && bytes[i - 1] == b'\r' {
                    crlf += 1;
                } else {
                    lf += 1;
                }
            }
        }
        Scan {
            kind: classify(src),
            lines: LineIndex::new(src),
            nl: if crlf > lf { "\r\n" } else { "\n" },
            unit: OnceLock::new(),
            col0: OnceLock::new(),
        }
    }
}

/// Texts at least this long keep their scan for the next render of the same text: `check`
/// renders one fix per finding, and scanning a large file for each made it quadratic.
const CACHE_FROM_BYTES: usize = 16 * 1024;

thread_local! {
    static LAST_SCAN: RefCell<Option<(String, Arc<Scan>)>> = const { RefCell::new(None) };
}

pub(super) fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl<'a> SourceText<'a> {
    pub fn new(src: &'a str) -> SourceText<'a> {
        Self::with_scan(src, Arc::new(Scan::of(src)))
    }

    /// [`SourceText::new`], reusing the scan of the previous text of this thread when the
    /// text is the same (compared byte for byte, which is far cheaper than scanning).
    pub fn cached(src: &'a str) -> SourceText<'a> {
        if src.len() < CACHE_FROM_BYTES {
            return Self::new(src);
        }
        let scan = LAST_SCAN.with(|last| {
            let mut last = last.borrow_mut();
            match &*last {
                Some((text, scan)) if text == src => scan.clone(),
                _ => {
                    let scan = Arc::new(Scan::of(src));
                    *last = Some((src.to_string(), scan.clone()));
                    scan
                }
            }
        });
        Self::with_scan(src, scan)
    }

    fn with_scan(src: &'a str, scan: Arc<Scan>) -> SourceText<'a> {
        SourceText {
            src,
            bytes: src.as_bytes(),
            nl: scan.nl,
            scan,
        }
    }

    pub fn scan(&self) -> &Scan {
        &self.scan
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn kind(&self, pos: usize) -> Kind {
        self.scan.kind.get(pos).copied().unwrap_or(Kind::Code)
    }

    pub fn line_count(&self) -> usize {
        self.scan.lines.line_count()
    }

    /// The line holding byte `pos` (the last line for `pos == len`).
    pub fn line_of(&self, pos: usize) -> usize {
        self.scan.lines.line(pos as u32) as usize
    }

    pub fn line_start(&self, line: usize) -> usize {
        self.scan.lines.starts()[line] as usize
    }

    /// End of the line's text: the offset of its `\r\n` or `\n`, or the end of the file.
    pub fn line_end(&self, line: usize) -> usize {
        self.scan.lines.line_end(self.src, line as u32) as usize
    }

    /// First non-blank byte of the line, if any.
    pub fn first_nonblank(&self, line: usize) -> Option<usize> {
        let (s, e) = (self.line_start(line), self.line_end(line));
        (s..e).find(|&i| !is_blank(self.bytes[i]))
    }

    /// The line's leading blanks.
    pub fn indent_of_line(&self, line: usize) -> &'a str {
        let s = self.line_start(line);
        let e = self
            .first_nonblank(line)
            .unwrap_or_else(|| self.line_end(line));
        &self.src[s..e]
    }

    /// True when the line is a preprocessor line written at column 0.
    pub fn is_col0_directive(&self, line: usize) -> bool {
        let s = self.line_start(line);
        self.bytes.get(s) == Some(&b'#') && self.kind(s) == Kind::Code
    }

    /// True when the line (first non-blank) is a `#pragma omp` line.
    pub fn is_pragma_omp_line(&self, line: usize) -> bool {
        let Some(c) = self.first_nonblank(line) else {
            return false;
        };
        if self.bytes[c] != b'#' || self.kind(c) != Kind::Code {
            return false;
        }
        let rest = &self.src[c + 1..self.line_end(line)];
        let rest = rest.trim_start_matches([' ', '\t']);
        let Some(rest) = rest.strip_prefix("pragma") else {
            return false;
        };
        let trimmed = rest.trim_start_matches([' ', '\t']);
        trimmed.len() < rest.len()
            && trimmed.starts_with("omp")
            && !trimmed[3..].bytes().next().is_some_and(is_ident)
    }

    /// True when the line's text ends with a `\` continuation.
    pub fn continues(&self, line: usize) -> bool {
        let text = &self.src[self.line_start(line)..self.line_end(line)];
        text.trim_end_matches([' ', '\t']).ends_with('\\')
    }

    /// True when the line's last code ends with `{`, `)`, `:`, `else` or `do`: what follows
    /// is indented one level deeper.
    pub fn opens_body(&self, line: usize) -> bool {
        let Some(i) = self.prev_code(self.line_end(line)) else {
            return false;
        };
        if i < self.line_start(line) {
            return false;
        }
        matches!(self.bytes[i], b'{' | b')' | b':')
            || matches!(self.word_before(i + 1), "else" | "do")
    }

    /// Index of the last code byte before `pos`, skipping blanks, line breaks and comments.
    pub fn prev_code(&self, pos: usize) -> Option<usize> {
        let mut i = pos.min(self.len());
        while i > 0 {
            i -= 1;
            let b = self.bytes[i];
            if self.kind(i) == Kind::Comment || b.is_ascii_whitespace() {
                continue;
            }
            return Some(i);
        }
        None
    }

    /// The identifier or keyword that ends at `end` (exclusive), if any.
    pub fn word_before(&self, end: usize) -> &'a str {
        let mut s = end;
        while s > 0 && is_ident(self.bytes[s - 1]) {
            s -= 1;
        }
        &self.src[s..end]
    }

    /// True when the text at `pos` is the keyword `word` (not a prefix of a longer name).
    pub fn keyword_at(&self, pos: usize, word: &str) -> bool {
        self.src.get(pos..).is_some_and(|r| r.starts_with(word))
            && !self
                .bytes
                .get(pos + word.len())
                .copied()
                .is_some_and(is_ident)
            && (pos == 0 || !is_ident(self.bytes[pos - 1]))
    }

    /// For the `)` at `close`, the offset of its matching `(` (code bytes only).
    pub fn matching_open_paren(&self, close: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut i = close + 1;
        while i > 0 {
            i -= 1;
            if self.kind(i) != Kind::Code {
                continue;
            }
            match self.bytes[i] {
                b')' => depth += 1,
                b'(' => {
                    if depth <= 1 {
                        return Some(i);
                    }
                    depth -= 1;
                }
                _ => {}
            }
        }
        None
    }
}

/// Classifies every byte as code, comment or literal.
fn classify(src: &str) -> Vec<Kind> {
    let mut kind = vec![Kind::Code; src.len()];
    for r in regions(src) {
        kind[r.start..r.end].fill(match r.kind {
            RegionKind::Comment => Kind::Comment,
            RegionKind::Literal => Kind::Literal,
        });
    }
    kind
}

/// The file's indent unit: a tab when most indented lines start with one, else the most common
/// positive step between consecutive non-blank lines (2 spaces when there is none). Steps after
/// a line that opens a block or a body (ends with `{`, `)`, `:`, `else`, `do`) are preferred, so
/// continuation lines aligned with an open parenthesis do not count when there are others.
pub(super) fn indent_unit(t: &SourceText) -> String {
    let (mut tab_lines, mut space_lines) = (0usize, 0usize);
    let mut steps = [0usize; 9];
    let mut opener_steps = [0usize; 9];
    let mut prev: Option<(usize, bool)> = None;
    for line in 0..t.line_count() {
        let Some(c) = t.first_nonblank(line) else {
            continue;
        };
        let starts_comment = t.src[c..].starts_with("//") || t.src[c..].starts_with("/*");
        if (t.kind(c) != Kind::Code && !starts_comment) || t.is_col0_directive(line) {
            continue;
        }
        let ws = t.indent_of_line(line);
        if ws.starts_with('\t') {
            tab_lines += 1;
        } else if !ws.is_empty() {
            space_lines += 1;
        }
        if ws.contains('\t') {
            prev = None;
            continue;
        }
        let w = ws.len();
        if let Some((p, opener)) = prev {
            if w > p && w - p < steps.len() {
                steps[w - p] += 1;
                if opener {
                    opener_steps[w - p] += 1;
                }
            }
        }
        prev = Some((w, t.opens_body(line)));
    }
    if tab_lines > space_lines {
        return "\t".to_string();
    }
    if opener_steps.iter().any(|&n| n > 0) {
        steps = opener_steps;
    }
    let mut best = 0;
    for w in 1..steps.len() {
        if steps[w] > steps[best] {
            best = w;
        }
    }
    " ".repeat(if best == 0 { 2 } else { best })
}

/// True when the file writes its `#pragma omp` lines at column 0 in front of indented code
/// (more of them at column 0 than indented, and at least one of those before indented code).
pub(super) fn pragmas_at_column0(t: &SourceText) -> bool {
    let (mut col0, mut indented, mut col0_before_indented) = (0usize, 0usize, false);
    for line in 0..t.line_count() {
        if !t.is_pragma_omp_line(line) || (line > 0 && t.continues(line - 1)) {
            continue;
        }
        if !t.indent_of_line(line).is_empty() {
            indented += 1;
            continue;
        }
        col0 += 1;
        // The code the pragma precedes: the next non-blank line that is no preprocessor line
        // and no continuation.
        let mut next = line + 1;
        while next < t.line_count() {
            let cont = t.continues(next - 1);
            match t.first_nonblank(next) {
                Some(c) if !cont && t.bytes[c] != b'#' => {
                    if c > t.line_start(next) {
                        col0_before_indented = true;
                    }
                    break;
                }
                _ => next += 1,
            }
        }
    }
    col0_before_indented && col0 > indented
}
