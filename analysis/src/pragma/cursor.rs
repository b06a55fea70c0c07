//! Token cursor shared by the directive, clause, list-item and expression
//! parsers.

use super::lexer::{TokKind, Token};
use super::{PragmaDiagnostic, Severity, Span, MAX_NESTING};

/// A syntax error: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParseError {
    pub span: Span,
    pub message: String,
}

pub(crate) type PResult<T> = Result<T, ParseError>;

pub(crate) struct Parser {
    toks: Vec<Token>,
    /// For each `(` token, the index of its matching `)`, if any.
    paren_match: Vec<Option<usize>>,
    pub pos: usize,
    pub diags: Vec<PragmaDiagnostic>,
    depth: u32,
}

impl Parser {
    /// `toks` must end with an `Eof` token (as produced by the lexer).
    pub fn new(mut toks: Vec<Token>, diags: Vec<PragmaDiagnostic>) -> Parser {
        if toks.last().is_none_or(|t| t.kind != TokKind::Eof) {
            let end = toks.last().map_or(0, |t| t.span.end);
            toks.push(Token {
                kind: TokKind::Eof,
                text: String::new(),
                span: Span::new(end, end),
                space_before: true,
            });
        }
        let mut paren_match = vec![None; toks.len()];
        let mut open: Vec<usize> = Vec::new();
        for (i, tok) in toks.iter().enumerate() {
            if tok.is_punct("(") {
                open.push(i);
            } else if tok.is_punct(")") {
                if let Some(o) = open.pop() {
                    paren_match[o] = Some(i);
                }
            }
        }
        Parser {
            toks,
            paren_match,
            pos: 0,
            diags,
            depth: 0,
        }
    }

    /// The token `n` positions ahead (the final `Eof` when past the end).
    pub fn peek_at(&self, n: usize) -> &Token {
        let last = self.toks.len() - 1;
        &self.toks[self.pos.saturating_add(n).min(last)]
    }

    pub fn peek(&self) -> &Token {
        self.peek_at(0)
    }

    /// The token at absolute index `i` (clamped to `Eof`).
    pub fn token(&self, i: usize) -> &Token {
        let last = self.toks.len() - 1;
        &self.toks[i.min(last)]
    }

    pub fn at_eof(&self) -> bool {
        self.peek().kind == TokKind::Eof
    }

    /// Consumes and returns the current token (never moves past `Eof`).
    pub fn bump(&mut self) -> Token {
        let tok = self.peek().clone();
        if tok.kind != TokKind::Eof {
            self.pos += 1;
        }
        tok
    }

    pub fn is_punct(&self, p: &str) -> bool {
        self.peek().is_punct(p)
    }

    pub fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes punctuator `p` or fails with "expected `p` <context>, found
    /// X".
    pub fn expect_punct(&mut self, p: &str, context: &str) -> PResult<Span> {
        if self.is_punct(p) {
            Ok(self.bump().span)
        } else {
            Err(self.error_here(format!("expected `{p}` {context}")))
        }
    }

    /// An error at the current token: `message` + ", found X".
    pub fn error_here(&self, message: String) -> ParseError {
        let tok = self.peek();
        ParseError {
            span: tok.span,
            message: format!("{message}, found {}", tok.describe()),
        }
    }

    /// End offset of the last consumed token.
    pub fn prev_end(&self) -> u32 {
        if self.pos == 0 {
            self.toks[0].span.start
        } else {
            self.token(self.pos - 1).span.end
        }
    }

    pub fn report(&mut self, err: ParseError) {
        self.diags.push(PragmaDiagnostic {
            span: err.span,
            severity: Severity::Error,
            message: err.message,
        });
    }

    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.report(ParseError {
            span,
            message: message.into(),
        });
    }

    pub fn warning(&mut self, span: Span, message: impl Into<String>) {
        self.diags.push(PragmaDiagnostic {
            span,
            severity: Severity::Warning,
            message: message.into(),
        });
    }

    /// Index of the `)` matching the `(` at index `open`, if any. Only
    /// parentheses are counted.
    pub fn matching_paren(&self, open: usize) -> Option<usize> {
        self.paren_match.get(open).copied().flatten()
    }

    /// Index of the first `:` between the current token and `end`
    /// (exclusive) outside any parentheses, brackets or braces.
    pub fn top_level_colon(&self, end: usize) -> Option<usize> {
        let mut depth = 0usize;
        let end = end.min(self.toks.len());
        let mut i = self.pos;
        while i < end {
            let tok = &self.toks[i];
            i += 1;
            if tok.kind != TokKind::Punct {
                continue;
            }
            match tok.text.as_str() {
                // Jump over a parenthesised group; nothing after an
                // unclosed `(` is at the top level.
                "(" => match self.matching_paren(i - 1) {
                    Some(close) => i = close + 1,
                    None => return None,
                },
                "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    if depth == 0 {
                        return None;
                    }
                    depth -= 1;
                }
                ":" if depth == 0 => return Some(i - 1),
                _ => {}
            }
        }
        None
    }

    /// Text of tokens `start..end`, separated by one space where the source
    /// had whitespace or a comment.
    pub fn raw_text(&self, start: usize, end: usize) -> String {
        let mut out = String::new();
        for i in start..end.min(self.toks.len()) {
            let tok = &self.toks[i];
            if tok.kind == TokKind::Eof {
                break;
            }
            if tok.space_before && !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&tok.text);
        }
        out
    }

    /// Moves to index `i` (clamped to `Eof`).
    pub fn seek(&mut self, i: usize) {
        self.pos = i.min(self.toks.len() - 1);
    }

    /// Skips one token; a `(` or `[` is skipped with everything up to its
    /// matching close (or to the end).
    pub fn skip_balanced(&mut self) {
        let tok = self.peek();
        if tok.is_punct("(") {
            match self.matching_paren(self.pos) {
                Some(close) => self.seek(close + 1),
                None => self.seek(usize::MAX),
            }
        } else if tok.is_punct("[") {
            let mut depth = 0usize;
            while !self.at_eof() {
                let t = self.bump();
                if t.is_punct("[") {
                    depth += 1;
                } else if t.is_punct("]") {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
            }
        } else {
            self.bump();
        }
    }

    /// Enters one level of expression nesting; fails past [`MAX_NESTING`].
    /// Callers save [`Parser::depth`] first and restore it with
    /// [`Parser::restore_depth`] when done, on every path.
    pub fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_NESTING {
            let span = self.peek().span;
            return Err(ParseError {
                span,
                message: format!("expression nested too deeply (more than {MAX_NESTING} levels)"),
            });
        }
        self.depth += 1;
        Ok(())
    }

    pub fn depth(&self) -> u32 {
        self.depth
    }

    pub fn restore_depth(&mut self, depth: u32) {
        self.depth = depth;
    }
}
