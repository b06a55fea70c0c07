//! Inline suppressions: comments that silence findings.
//!
//! - `// omplens: ignore[OMP101]`, `/* omplens: ignore[OMP101, stale-host-read] */` or a bare
//!   `// omplens: ignore` (every rule) silences the findings whose primary range starts on
//!   the comment's line; a comment alone on its line also covers the line below it.
//! - `// omplens: ignore-file[OMP208]` (or bare `ignore-file`) anywhere silences the file.
//!
//! Codes and rule names are case-insensitive. Parse a file once with
//! [`Suppressions::parse`] and ask [`Suppressions::suppresses`] per finding, or use
//! [`filter`] / [`suppressed`] for one-shot use.

use super::rules::{self, Code, Rule};
use super::Finding;
use crate::text::scan::{regions, RegionKind};
use crate::text::LineIndex;

/// Which rules a comment names.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Codes {
    All,
    Some(Vec<Code>),
}

impl Codes {
    fn covers(&self, code: Code) -> bool {
        match self {
            Codes::All => true,
            Codes::Some(codes) => codes.contains(&code),
        }
    }
}

/// The suppression comments of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suppressions {
    /// (0-based line, codes) for each line a comment covers.
    lines: Vec<(u32, Codes)>,
    file: Vec<Codes>,
    /// Names in suppression comments that are no rule: (byte offset of the comment, name).
    pub unknown: Vec<(u32, String)>,
}

impl Suppressions {
    /// The suppression comments of `source`; `lines` is its line index.
    pub fn parse(source: &str, lines: &LineIndex) -> Suppressions {
        let mut out = Suppressions::default();
        for c in comments(source) {
            let Some((file_level, codes)) = directive(&source[c.start..c.end]) else {
                continue;
            };
            let codes = match codes {
                None => Codes::All,
                Some(names) => {
                    let mut known = Vec::new();
                    for name in names {
                        match rules::lookup(&name) {
                            Some(Rule { code, .. }) => known.push(*code),
                            None => out.unknown.push((c.start as u32, name)),
                        }
                    }
                    Codes::Some(known)
                }
            };
            if file_level {
                out.file.push(codes);
                continue;
            }
            let first = lines.line(c.start as u32);
            let last = lines.line(c.end.saturating_sub(1) as u32);
            if alone(source, c.start, c.end) {
                out.lines.push((last + 1, codes.clone()));
            }
            out.lines.push((first, codes));
        }
        out
    }

    /// Whether a comment silences `f`.
    pub fn suppresses(&self, lines: &LineIndex, f: &Finding) -> bool {
        if self.file.iter().any(|c| c.covers(f.code)) {
            return true;
        }
        let line = lines.line(f.span.start);
        self.lines
            .iter()
            .any(|(l, c)| *l == line && c.covers(f.code))
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.file.is_empty()
    }
}

/// Whether a suppression comment of `source` silences `f`.
pub fn suppressed(source: &str, lines: &LineIndex, f: &Finding) -> bool {
    Suppressions::parse(source, lines).suppresses(lines, f)
}

/// The findings no suppression comment of `source` silences.
pub fn filter(source: &str, lines: &LineIndex, findings: Vec<Finding>) -> Vec<Finding> {
    let s = Suppressions::parse(source, lines);
    if s.is_empty() {
        return findings;
    }
    findings
        .into_iter()
        .filter(|f| !s.suppresses(lines, f))
        .collect()
}

/// Only blanks before the comment on its first line and after it on its last line.
fn alone(source: &str, start: usize, end: usize) -> bool {
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[end..].find('\n').map_or(source.len(), |i| end + i);
    source[line_start..start].trim().is_empty() && source[end..line_end].trim().is_empty()
}

/// A comment's byte range, delimiters included.
struct Comment {
    start: usize,
    end: usize,
}

/// The comments of C/C++ text (a `//` comment without a `\r` that ends its line).
fn comments(source: &str) -> Vec<Comment> {
    let b = source.as_bytes();
    regions(source)
        .into_iter()
        .filter(|r| r.kind == RegionKind::Comment)
        .map(|r| {
            let mut end = r.end;
            if end > r.start && b[end - 1] == b'\r' {
                end -= 1;
            }
            Comment {
                start: r.start,
                end,
            }
        })
        .collect()
}

/// `omplens: ignore[...]` in a comment's text: (file-level, the names or `None` for all).
fn directive(comment: &str) -> Option<(bool, Option<Vec<String>>)> {
    let body = comment
        .strip_prefix("//")
        .or_else(|| comment.strip_prefix("/*"))?;
    let body = body.strip_suffix("*/").unwrap_or(body);
    let lower = body.to_ascii_lowercase();
    let at = lower.find("omplens:")?;
    let rest = body[at + "omplens:".len()..].trim_start();
    let (file_level, rest) = if let Some(r) = strip_prefix_ci(rest, "ignore-file") {
        (true, r)
    } else {
        (false, strip_prefix_ci(rest, "ignore")?)
    };
    let rest = rest.trim_start();
    if let Some(list) = rest.strip_prefix('[') {
        let list = &list[..list.find(']')?];
        let names = list
            .split(',')
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .collect();
        return Some((file_level, Some(names)));
    }
    // `ignore` must end there: `ignored`, `ignore-this` are prose, not a directive.
    match rest.chars().next() {
        None => Some((file_level, None)),
        Some(c) if c.is_whitespace() || !(c.is_alphanumeric() || c == '-' || c == '_') => {
            Some((file_level, None))
        }
        Some(_) => None,
    }
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Severity;
    use crate::ir::Span;
    use crate::text::LineIndex;

    fn finding(code: Code, source: &str, needle: &str) -> Finding {
        let start = source.find(needle).expect("needle") as u32;
        Finding {
            code,
            severity: Severity::Error,
            span: Span::new(start, start + needle.len() as u32),
            message: String::new(),
            related: Vec::new(),
            fixes: Vec::new(),
            bytes: None,
            multiplier: None,
        }
    }

    fn is_suppressed(source: &str, code: Code, needle: &str) -> bool {
        suppressed(
            source,
            &LineIndex::new(source),
            &finding(code, source, needle),
        )
    }

    #[test]
    fn same_line_comment_with_code() {
        let src = "int x;\nprintf(\"%f\", a[0]); // omplens: ignore[OMP101]\n";
        assert!(is_suppressed(src, Code::OMP101, "a[0]"));
        assert!(!is_suppressed(src, Code::OMP202, "a[0]"));
    }

    #[test]
    fn several_codes_and_names_case_insensitive() {
        let src = "f(a[0]); // OMPLENS: Ignore[omp202, Stale-Host-Read]\n";
        assert!(is_suppressed(src, Code::OMP101, "a[0]"));
        assert!(is_suppressed(src, Code::OMP202, "a[0]"));
        assert!(!is_suppressed(src, Code::OMP102, "a[0]"));
    }

    #[test]
    fn block_comment_and_bare_ignore() {
        let src = "f(a[0]); /* omplens: ignore[stale-host-read] */\ng(b); // omplens: ignore\n";
        assert!(is_suppressed(src, Code::OMP101, "a[0]"));
        assert!(!is_suppressed(src, Code::OMP102, "a[0]"));
        assert!(is_suppressed(src, Code::OMP102, "b"));
        assert!(is_suppressed(src, Code::OMP209, "b"));
    }

    #[test]
    fn comment_alone_on_the_line_above() {
        let src = "  // omplens: ignore[OMP101]\n  f(a[0]);\n  g(b[0]);\n";
        assert!(is_suppressed(src, Code::OMP101, "a[0]"));
        assert!(!is_suppressed(src, Code::OMP101, "b[0]"));
    }

    #[test]
    fn trailing_comment_does_not_cover_the_next_line() {
        let src = "x = 1; // omplens: ignore[OMP101]\nf(a[0]);\n";
        assert!(!is_suppressed(src, Code::OMP101, "a[0]"));
    }

    #[test]
    fn multi_line_block_comment_above() {
        let src = "/* reason:\n   omplens: ignore[OMP101] */\nf(a[0]);\n";
        assert!(is_suppressed(src, Code::OMP101, "a[0]"));
    }

    #[test]
    fn file_level() {
        let src = "// omplens: ignore-file[OMP208]\nint main() {\n  f(a[0]);\n}\n";
        assert!(is_suppressed(src, Code::OMP208, "a[0]"));
        assert!(!is_suppressed(src, Code::OMP101, "a[0]"));
        let src = "int main() {\n  f(a[0]);\n}\n/* omplens: ignore-file */\n";
        assert!(is_suppressed(src, Code::OMP101, "a[0]"));
    }

    #[test]
    fn not_inside_strings_and_not_prose() {
        let src = "puts(\"// omplens: ignore\"); f(a[0]);\n";
        assert!(!is_suppressed(src, Code::OMP101, "a[0]"));
        let src = "f(a[0]); // omplens: ignored on purpose?\n";
        assert!(!is_suppressed(src, Code::OMP101, "a[0]"));
        let src = "f(a[0]); // see the omplens docs\n";
        assert!(!is_suppressed(src, Code::OMP101, "a[0]"));
    }

    #[test]
    fn unknown_names_are_reported_and_suppress_nothing() {
        let src = "f(a[0]); // omplens: ignore[OMP999, OMP101]\n";
        let s = Suppressions::parse(src, &LineIndex::new(src));
        assert_eq!(s.unknown, vec![(9, "OMP999".to_string())]);
        assert!(s.suppresses(&LineIndex::new(src), &finding(Code::OMP101, src, "a[0]")));
        assert!(!s.suppresses(&LineIndex::new(src), &finding(Code::OMP102, src, "a[0]")));
    }

    #[test]
    fn filter_keeps_the_rest() {
        let src = "f(a[0]); // omplens: ignore[OMP101]\ng(b[0]);\n";
        let kept = filter(
            src,
            &LineIndex::new(src),
            vec![
                finding(Code::OMP101, src, "a[0]"),
                finding(Code::OMP101, src, "b[0]"),
            ],
        );
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].span.start, src.find("b[0]").unwrap() as u32);
    }

    #[test]
    fn digit_separators_are_not_quotes() {
        let src = "long n = 1'000'000; f(a[0]); // omplens: ignore[OMP101]\n";
        assert!(is_suppressed(src, Code::OMP101, "a[0]"));
        let src = "char c = '\\''; f(a[0]); // omplens: ignore[OMP101]\n";
        assert!(is_suppressed(src, Code::OMP101, "a[0]"));
    }

    #[test]
    fn crlf_and_unterminated_comment() {
        let src = "// omplens: ignore[OMP101]\r\nf(a[0]);\r\n/* omplens: ignore";
        assert!(is_suppressed(src, Code::OMP101, "a[0]"));
    }
}
