//! List items: variables, member paths, array elements and sections.

use super::ast::{Accessor, Expr, Ident, ListItem};
use super::cursor::{PResult, ParseError, Parser};
use super::lexer::TokKind;

impl Parser {
    /// One or more comma-separated list items.
    pub fn parse_list(&mut self) -> PResult<Vec<ListItem>> {
        let mut items = vec![self.parse_list_item()?];
        while self.eat_punct(",") {
            items.push(self.parse_list_item()?);
        }
        Ok(items)
    }

    /// `[*] name (.name | ->name | [index] | [lo:len:stride])*`.
    pub fn parse_list_item(&mut self) -> PResult<ListItem> {
        let start = self.peek().span;
        let deref = self.eat_punct("*");
        if deref && self.is_punct("*") {
            return Err(ParseError {
                span: self.peek().span,
                message: "only one leading `*` is supported in a list item".to_string(),
            });
        }
        if self.peek().kind != TokKind::Ident {
            return Err(self.error_here("expected a list item".to_string()));
        }
        let (name, name_span) = self.parse_qualified_name();
        let base = Ident {
            name,
            span: name_span,
        };
        let mut path = Vec::new();
        let mut end = name_span;
        loop {
            let tok = self.peek().clone();
            if tok.is_punct(".") || tok.is_punct("->") {
                self.bump();
                let member = self.peek().clone();
                if member.kind != TokKind::Ident {
                    return Err(
                        self.error_here(format!("expected a member name after `{}`", tok.text))
                    );
                }
                self.bump();
                end = member.span;
                path.push(Accessor::Member {
                    name: Ident {
                        name: member.text,
                        span: member.span,
                    },
                    arrow: tok.text == "->",
                });
            } else if tok.is_punct("[") {
                let accessor = self.parse_subscript()?;
                end = self.token(self.pos.saturating_sub(1)).span;
                path.push(accessor);
            } else {
                break;
            }
        }
        Ok(ListItem {
            span: start.to(end),
            deref,
            base,
            path,
        })
    }

    /// `[expr]` or an array section `[lower : length : stride]` with every
    /// part optional. A `::` token counts as two colons (`a[::2]`).
    fn parse_subscript(&mut self) -> PResult<Accessor> {
        let open = self.bump().span;
        let close_msg = "to close `[`";
        let mut lower = None;
        let mut length = None;
        let mut stride = None;
        if !self.is_punct(":") && !self.is_punct("::") {
            if self.is_punct("]") || self.at_eof() {
                return Err(self.error_here("expected an index or array section".to_string()));
            }
            let index = self.parse_expr()?;
            if self.is_punct("]") {
                self.bump();
                return Ok(Accessor::Index(index));
            }
            lower = Some(index);
        }
        if self.eat_punct("::") {
            stride = Some(self.parse_stride()?);
        } else {
            self.expect_punct(":", "or `]` in array subscript")
                .map_err(|e| self.bracket_error(e, close_msg))?;
            if !self.is_punct("]") && !self.is_punct(":") {
                length = Some(self.parse_expr()?);
            }
            if self.eat_punct(":") {
                stride = Some(self.parse_stride()?);
            }
        }
        let close = self
            .expect_punct("]", close_msg)
            .map_err(|e| self.bracket_error(e, close_msg))?;
        Ok(Accessor::Section {
            lower,
            length,
            stride,
            span: open.to(close),
        })
    }

    fn parse_stride(&mut self) -> PResult<Expr> {
        if self.is_punct("]") {
            return Err(self.error_here("expected a stride expression".to_string()));
        }
        self.parse_expr()
    }

    /// At the end of the pragma, a missing `]` is the more useful message.
    fn bracket_error(&self, err: ParseError, close_msg: &str) -> ParseError {
        if self.at_eof() {
            ParseError {
                span: err.span,
                message: format!("expected `]` {close_msg}"),
            }
        } else {
            err
        }
    }
}
