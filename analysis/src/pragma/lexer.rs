//! Tokeniser for the text of one pragma.
//!
//! Backslash-newline sequences are removed first (C translation phase 2,
//! also `\` + spaces/tabs + newline and a `\` at the very end of the text),
//! so a continuation may even split a word. Comments are whitespace.

use super::{PragmaDiagnostic, Severity, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokKind {
    Ident,
    /// A preprocessing number (`10`, `0x1F`, `1.5e-3f`, `1'000`).
    Number,
    /// Character literal, quotes and prefix included.
    Char,
    /// String literal, quotes and prefix included.
    Str,
    Punct,
    /// A character that starts no token.
    Unknown,
    Eof,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokKind,
    /// The token's characters with continuations removed.
    pub text: String,
    /// File offsets.
    pub span: Span,
    /// Whitespace or a comment directly precedes the token.
    pub space_before: bool,
}

impl Token {
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == TokKind::Punct && self.text == p
    }

    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == TokKind::Ident && self.text == name
    }

    /// How a diagnostic names this token: "`x`" or "end of pragma".
    pub fn describe(&self) -> String {
        match self.kind {
            TokKind::Eof => "end of pragma".to_string(),
            _ => format!("`{}`", self.text),
        }
    }
}

/// Punctuators, longest first.
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "::",
    "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##", "#", "(", ")", "[", "]", "{", "}", ".",
    ",", ":", ";", "?", "~", "!", "+", "-", "*", "/", "%", "<", ">", "&", "^", "|", "=",
];

/// Converts a byte index into a file offset without overflowing.
pub(crate) fn offset(base: u32, index: usize) -> u32 {
    base.saturating_add(u32::try_from(index).unwrap_or(u32::MAX))
}

/// Removes backslash-newline sequences: returns each remaining char with
/// its byte index in `text`.
fn splice(text: &str) -> Vec<(usize, char)> {
    let mut out = Vec::with_capacity(text.len());
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (idx, c) = chars[i];
        if c == '\\' {
            let mut j = i + 1;
            while j < chars.len() && matches!(chars[j].1, ' ' | '\t') {
                j += 1;
            }
            if j >= chars.len() {
                // A continuation at the very end of the text.
                break;
            }
            match chars[j].1 {
                '\n' => {
                    i = j + 1;
                    continue;
                }
                '\r' => {
                    i = j + 1;
                    if i < chars.len() && chars[i].1 == '\n' {
                        i += 1;
                    }
                    continue;
                }
                _ => {}
            }
        }
        out.push((idx, c));
        i += 1;
    }
    out
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphanumeric()
}

struct Lexer {
    chars: Vec<(usize, char)>,
    pos: usize,
    base: u32,
    tokens: Vec<Token>,
    diags: Vec<PragmaDiagnostic>,
}

impl Lexer {
    fn at(&self, i: usize) -> Option<char> {
        self.chars.get(i).map(|&(_, c)| c)
    }

    /// File span of chars `start..end` (indices into `chars`).
    fn span(&self, start: usize, end: usize) -> Span {
        let lo = self.chars.get(start).map_or(0, |&(i, _)| i);
        let hi = if end > start {
            self.chars
                .get(end - 1)
                .map_or(lo, |&(i, c)| i + c.len_utf8())
        } else {
            lo
        };
        Span::new(offset(self.base, lo), offset(self.base, hi))
    }

    fn text(&self, start: usize, end: usize) -> String {
        self.chars[start..end].iter().map(|&(_, c)| c).collect()
    }

    fn push(&mut self, kind: TokKind, start: usize, space_before: bool) {
        let token = Token {
            kind,
            text: self.text(start, self.pos),
            span: self.span(start, self.pos),
            space_before,
        };
        self.tokens.push(token);
    }

    fn error(&mut self, span: Span, message: &str) {
        self.diags.push(PragmaDiagnostic {
            span,
            severity: Severity::Error,
            message: message.to_string(),
        });
    }

    /// Skips whitespace and comments; returns whether any were skipped.
    fn skip_trivia(&mut self) -> bool {
        let mut skipped = false;
        loop {
            match (self.at(self.pos), self.at(self.pos + 1)) {
                (Some(c), _) if c.is_whitespace() => self.pos += 1,
                (Some('/'), Some('/')) => {
                    while self.at(self.pos).is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                }
                (Some('/'), Some('*')) => {
                    let start = self.pos;
                    self.pos += 2;
                    loop {
                        match (self.at(self.pos), self.at(self.pos + 1)) {
                            (Some('*'), Some('/')) => {
                                self.pos += 2;
                                break;
                            }
                            (Some(_), _) => self.pos += 1,
                            (None, _) => {
                                let span = self.span(start, start + 2);
                                self.error(span, "unterminated `/*` comment");
                                break;
                            }
                        }
                    }
                }
                _ => return skipped,
            }
            skipped = true;
        }
    }

    /// Scans a quoted literal whose opening quote is at `self.pos`.
    fn quoted(&mut self, start: usize, quote: char, space: bool) {
        self.pos += 1;
        let mut closed = false;
        while let Some(c) = self.at(self.pos) {
            if c == '\n' {
                break;
            }
            self.pos += 1;
            if c == '\\' {
                if self.at(self.pos).is_some_and(|c| c != '\n') {
                    self.pos += 1;
                }
            } else if c == quote {
                closed = true;
                break;
            }
        }
        let kind = if quote == '"' {
            TokKind::Str
        } else {
            TokKind::Char
        };
        if !closed {
            let span = self.span(start, self.pos);
            let what = if quote == '"' {
                "unterminated string literal"
            } else {
                "unterminated character literal"
            };
            self.error(span, what);
        }
        self.push(kind, start, space);
    }

    fn number(&mut self, start: usize, space: bool) {
        self.pos += 1;
        while let Some(c) = self.at(self.pos) {
            let prev = self.at(self.pos - 1).unwrap_or(' ');
            let exponent_sign = (c == '+' || c == '-') && matches!(prev, 'e' | 'E' | 'p' | 'P');
            let separator = c == '\''
                && self
                    .at(self.pos + 1)
                    .is_some_and(|n| n.is_ascii_alphanumeric());
            if exponent_sign || separator || c == '.' || c == '_' || c.is_ascii_alphanumeric() {
                self.pos += 1;
            } else {
                break;
            }
        }
        self.push(TokKind::Number, start, space);
    }

    fn run(&mut self) {
        loop {
            let space = self.skip_trivia();
            let start = self.pos;
            let Some(c) = self.at(self.pos) else {
                break;
            };
            if is_ident_start(c) {
                while self.at(self.pos).is_some_and(is_ident_continue) {
                    self.pos += 1;
                }
                let word = self.text(start, self.pos);
                let next = self.at(self.pos);
                if matches!(word.as_str(), "L" | "u" | "U" | "u8")
                    && matches!(next, Some('\'' | '"'))
                {
                    let quote = next.unwrap_or('"');
                    self.quoted(start, quote, space);
                } else {
                    self.push(TokKind::Ident, start, space);
                }
            } else if c.is_ascii_digit()
                || (c == '.' && self.at(self.pos + 1).is_some_and(|n| n.is_ascii_digit()))
            {
                self.number(start, space);
            } else if c == '"' || c == '\'' {
                self.quoted(start, c, space);
            } else if let Some(p) = PUNCTS.iter().find(|p| {
                p.chars()
                    .enumerate()
                    .all(|(k, pc)| self.at(self.pos + k) == Some(pc))
            }) {
                self.pos += p.chars().count();
                self.push(TokKind::Punct, start, space);
            } else {
                self.pos += 1;
                self.push(TokKind::Unknown, start, space);
            }
        }
        let end = self.tokens.last().map_or(self.base, |t| t.span.end);
        self.tokens.push(Token {
            kind: TokKind::Eof,
            text: String::new(),
            span: Span::new(end, end),
            space_before: true,
        });
    }
}

/// Tokenises `text` (file offset `base`). The result always ends with an
/// `Eof` token whose zero-width span sits right after the last real token.
pub(crate) fn lex(text: &str, base: u32) -> (Vec<Token>, Vec<PragmaDiagnostic>) {
    let mut lexer = Lexer {
        chars: splice(text),
        pos: 0,
        base,
        tokens: Vec::new(),
        diags: Vec::new(),
    };
    lexer.run();
    (lexer.tokens, lexer.diags)
}
