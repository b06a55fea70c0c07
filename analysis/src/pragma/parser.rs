//! Directive-level parsing: `#pragma omp`, the directive name, its
//! parenthesised argument and the clause list.

use super::ast::{Directive, Ident, ListItem};
use super::clauses::suggest;
use super::cursor::{ParseError, Parser};
use super::directives::{ArgForm, DirectiveKind};
use super::lexer::{lex, TokKind};
use super::{PragmaParse, Span};

/// Longest directive name is 6 words; look a little further for messages.
const MAX_NAME_WORDS: usize = 8;

pub(crate) fn parse(text: &str, base: u32) -> PragmaParse {
    let (toks, diags) = lex(text, base);
    let mut parser = Parser::new(toks, diags);
    let directive = parser.parse_directive();
    PragmaParse {
        directive,
        diagnostics: parser.diags,
    }
}

impl Parser {
    fn parse_directive(&mut self) -> Option<Directive> {
        let start = self.peek().span;
        for (word, context) in [
            ("#", ""),
            ("pragma", " after `#`"),
            ("omp", " after `#pragma`"),
        ] {
            let tok = self.peek();
            let ok = if word == "#" {
                tok.is_punct("#")
            } else {
                tok.is_ident(word)
            };
            if !ok {
                let err = if word == "#" {
                    self.error_here("expected `#pragma omp`".to_string())
                } else {
                    self.error_here(format!("expected `{word}`{context}"))
                };
                self.report(err);
                return None;
            }
            self.bump();
        }

        let (kind, name_span) = self.parse_directive_name()?;
        let mut directive = Directive {
            kind,
            name_span,
            span: start.to(name_span),
            arguments: Vec::new(),
            raw_argument: None,
            clauses: Vec::new(),
        };

        let form = kind.arg_form();
        if self.is_punct("(") {
            if form == ArgForm::None {
                let open = self.peek().span;
                self.skip_balanced();
                let span = open.to(Span::new(open.start, self.prev_end()));
                self.error(
                    span,
                    format!("`{}` does not take an argument in parentheses", kind.name()),
                );
            } else {
                self.parse_directive_argument(&mut directive);
            }
        } else if matches!(
            form,
            ArgForm::List { required: true } | ArgForm::Raw { required: true }
        ) {
            let at = name_span.end;
            self.error(
                Span::new(at, at),
                format!("`{}` requires an argument in parentheses", kind.name()),
            );
        }

        self.parse_clause_list(&mut directive);
        directive.span = start.to(Span::new(start.start, self.prev_end()));
        Some(directive)
    }

    /// Matches the longest known directive name at the cursor.
    fn parse_directive_name(&mut self) -> Option<(DirectiveKind, Span)> {
        if self.peek().kind != TokKind::Ident {
            let tok = self.peek();
            let (span, message) = if tok.kind == TokKind::Eof {
                (
                    Span::new(self.prev_end(), self.prev_end()),
                    "expected an OpenMP directive name after `#pragma omp`".to_string(),
                )
            } else {
                (
                    tok.span,
                    format!(
                        "expected an OpenMP directive name after `#pragma omp`, found {}",
                        tok.describe()
                    ),
                )
            };
            self.error(span, message);
            return None;
        }
        let mut words: Vec<String> = Vec::new();
        while words.len() < MAX_NAME_WORDS && self.peek_at(words.len()).kind == TokKind::Ident {
            words.push(self.peek_at(words.len()).text.clone());
        }
        let mut best: Option<(DirectiveKind, usize)> = None;
        for &kind in DirectiveKind::ALL {
            let n = kind.words().count();
            if n <= words.len()
                && kind.words().zip(&words).all(|(a, b)| a == *b)
                && best.is_none_or(|(_, bn)| n > bn)
            {
                best = Some((kind, n));
            }
        }
        if let Some((kind, n)) = best {
            let span = self.peek().span.to(self.peek_at(n - 1).span);
            self.seek(self.pos + n);
            return Some((kind, span));
        }

        // Unknown: is it the start of a longer name?
        let mut prefix_len = 0;
        let mut completion: Option<DirectiveKind> = None;
        for &kind in DirectiveKind::ALL {
            let common = kind
                .words()
                .zip(&words)
                .take_while(|(a, b)| a == *b)
                .count();
            // The first (most common) directive wins ties.
            if common > prefix_len {
                prefix_len = common;
                completion = Some(kind);
            }
        }
        let shown = prefix_len.max(1);
        let span = self.peek().span.to(self.peek_at(shown - 1).span);
        let name = words[..shown.min(words.len())].join(" ");
        let suggestion = if prefix_len > 0 {
            completion.map(DirectiveKind::name)
        } else {
            suggest(&name, DirectiveKind::ALL.iter().map(|k| k.name()))
        };
        let mut message = format!("unknown OpenMP directive `{name}`");
        if let Some(s) = suggestion {
            message.push_str(&format!("; did you mean `{s}`?"));
        }
        self.error(span, message);
        None
    }

    /// The parenthesised argument after the directive name (or, for
    /// `flush`, after its memory-order clause). The cursor is on `(`.
    fn parse_directive_argument(&mut self, directive: &mut Directive) {
        let kind = directive.kind;
        let open_idx = self.pos;
        let open = self.bump();
        let close_idx = self.matching_paren(open_idx);
        let end_idx = close_idx.unwrap_or(usize::MAX);
        let result = match kind.arg_form() {
            ArgForm::Raw { required } => {
                let first = self.pos;
                let raw = self.raw_text(first, end_idx);
                self.seek(end_idx);
                if close_idx.is_none() {
                    let at = self.prev_end();
                    Err(ParseError {
                        span: Span::new(at, at),
                        message: format!("expected `)` to close `{}(`", kind.name()),
                    })
                } else if raw.is_empty() && required {
                    Err(self.error_here(format!("expected an argument for `{}`", kind.name())))
                } else {
                    let span = if raw.is_empty() {
                        Span::new(open.span.end, open.span.end)
                    } else {
                        self.token(first)
                            .span
                            .to(Span::new(self.token(first).span.start, self.prev_end()))
                    };
                    directive.raw_argument = Some((raw, span));
                    Ok(())
                }
            }
            ArgForm::Name => {
                let tok = self.peek().clone();
                if tok.kind == TokKind::Ident && self.peek_at(1).is_punct(")") {
                    self.bump();
                    directive.arguments = vec![ListItem {
                        span: tok.span,
                        deref: false,
                        base: Ident {
                            name: tok.text,
                            span: tok.span,
                        },
                        path: Vec::new(),
                    }];
                    Ok(())
                } else {
                    Err(self.error_here(format!("expected a name for `{}`", kind.name())))
                }
            }
            ArgForm::List { .. } => match self.parse_list() {
                Ok(items) => {
                    if kind == DirectiveKind::Depobj && items.len() > 1 {
                        let span = items[1].span;
                        self.error(span, "`depobj` takes exactly one depend object");
                    }
                    directive.arguments = items;
                    Ok(())
                }
                Err(e) => Err(e),
            },
            ArgForm::None => Ok(()),
        };
        if let Err(err) = result {
            self.report(err);
            self.seek(end_idx.saturating_add(1));
            return;
        }
        if self.eat_punct(")") {
            return;
        }
        let name = kind.name();
        if let Some(close) = close_idx {
            let err = self.error_here("expected `,` or `)` after list item".to_string());
            self.report(err);
            self.seek(close + 1);
        } else {
            let at = self.prev_end();
            let mut message = format!("expected `)` to close `{name}(`");
            if !self.at_eof() {
                message.push_str(&format!(", found {}", self.peek().describe()));
            }
            self.report(ParseError {
                span: Span::new(at, at),
                message,
            });
        }
    }

    /// `clause [[,] clause]...` up to the end of the pragma.
    fn parse_clause_list(&mut self, directive: &mut Directive) {
        let kind = directive.kind;
        loop {
            let tok = self.peek().clone();
            match tok.kind {
                TokKind::Eof => break,
                TokKind::Ident => {
                    if let Some(clause) = self.parse_clause(kind) {
                        directive.clauses.push(clause);
                    }
                }
                TokKind::Punct if tok.text == "," => {
                    self.bump();
                    if self.at_eof() {
                        self.error(tok.span, "expected a clause after `,`");
                    }
                }
                TokKind::Punct
                    if tok.text == "("
                        && kind == DirectiveKind::Flush
                        && directive.arguments.is_empty() =>
                {
                    self.parse_directive_argument(directive);
                }
                _ => {
                    // Skip everything up to the next word that may be a clause.
                    let start = tok.span;
                    while !self.at_eof() && self.peek().kind != TokKind::Ident {
                        self.skip_balanced();
                    }
                    let span = start.to(Span::new(start.start, self.prev_end()));
                    self.error(
                        span,
                        format!("expected an OpenMP clause, found {}", tok.describe()),
                    );
                }
            }
        }
    }
}
