//! C expression parser (conditional expressions: no assignment, no comma
//! operator at top level). See [`super::Expr`] for the cast heuristic.

use super::ast::{BinaryOp, Expr, ExprKind, SizeofArg, UnaryOp};
use super::cursor::{PResult, Parser};
use super::lexer::TokKind;
use super::Span;

/// Words that make a parenthesised name a type.
const TYPE_WORDS: &[&str] = &[
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool",
    "bool", "_Complex", "const", "volatile", "restrict", "struct", "union", "enum", "wchar_t",
    "char8_t", "char16_t", "char32_t",
];

/// Qualifiers that may follow a `*` in a type.
const QUALIFIERS: &[&str] = &["const", "volatile", "restrict"];

/// How sure we are that a parenthesised token sequence is a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TypeGuess {
    /// Certainly a type (`int`, `size_t`, `T *`, `unsigned long`).
    Strong,
    /// A single unknown name (`T`): a type only when followed by an operand.
    Weak,
}

fn is_type_word(word: &str) -> bool {
    TYPE_WORDS.contains(&word) || word.ends_with("_t")
}

/// Builds the normalised type text from its tokens (idents, `*`, `::`).
pub(crate) fn type_text<'a>(tokens: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    let mut glue = false;
    for tok in tokens {
        match tok {
            "::" => {
                out.push_str("::");
                glue = true;
            }
            "*" => {
                if !out.is_empty() && !out.ends_with('*') && !glue {
                    out.push(' ');
                }
                out.push('*');
                glue = false;
            }
            word => {
                if !out.is_empty() && !glue {
                    out.push(' ');
                }
                out.push_str(word);
                glue = false;
            }
        }
    }
    out
}

impl Parser {
    /// Parses a conditional expression.
    ///
    /// Nesting is limited to [`super::MAX_NESTING`] levels, counting every
    /// sub-expression entry, unary operator, binary operator of a chain and
    /// postfix operator, so the depth of the resulting tree (and of the
    /// recursion that prints, compares or drops it) is bounded too.
    pub fn parse_expr(&mut self) -> PResult<Expr> {
        let saved = self.depth();
        let result = self.enter().and_then(|()| self.parse_ternary());
        self.restore_depth(saved);
        result
    }

    fn parse_ternary(&mut self) -> PResult<Expr> {
        let cond = self.parse_binary()?;
        if !self.is_punct("?") {
            return Ok(cond);
        }
        self.bump();
        let then = self.parse_expr()?;
        self.expect_punct(":", "in conditional expression")?;
        let otherwise = self.parse_expr()?;
        let span = cond.span.to(otherwise.span);
        Ok(Expr::new(
            ExprKind::Ternary(Box::new(cond), Box::new(then), Box::new(otherwise)),
            span,
        ))
    }

    /// Binary operators by operator precedence, without recursion: an
    /// operand stack and an operator stack (all operators are
    /// left-associative).
    fn parse_binary(&mut self) -> PResult<Expr> {
        let saved = self.depth();
        let result = self.parse_binary_inner();
        self.restore_depth(saved);
        result
    }

    fn parse_binary_inner(&mut self) -> PResult<Expr> {
        fn reduce(operands: &mut Vec<Expr>, ops: &mut Vec<BinaryOp>) {
            if let (Some(op), Some(rhs), Some(lhs)) = (ops.pop(), operands.pop(), operands.pop()) {
                let span = lhs.span.to(rhs.span);
                operands.push(Expr::new(
                    ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                    span,
                ));
            }
        }
        let mut operands = vec![self.parse_unary()?];
        let mut ops: Vec<BinaryOp> = Vec::new();
        loop {
            let tok = self.peek();
            if tok.kind != TokKind::Punct {
                break;
            }
            let Some(op) = BinaryOp::from_token(&tok.text) else {
                break;
            };
            self.enter()?;
            self.bump();
            while ops
                .last()
                .is_some_and(|top| top.precedence() >= op.precedence())
            {
                reduce(&mut operands, &mut ops);
            }
            ops.push(op);
            operands.push(self.parse_unary()?);
        }
        while !ops.is_empty() {
            reduce(&mut operands, &mut ops);
        }
        operands
            .pop()
            .ok_or_else(|| self.error_here("expected an expression".to_string()))
    }

    /// Unary expressions, casts and `sizeof` (recursion is depth-limited).
    fn parse_unary(&mut self) -> PResult<Expr> {
        let saved = self.depth();
        let result = self.enter().and_then(|()| self.parse_unary_inner());
        self.restore_depth(saved);
        result
    }

    fn parse_unary_inner(&mut self) -> PResult<Expr> {
        let tok = self.peek().clone();
        if tok.kind == TokKind::Punct {
            if let Some(op) = UnaryOp::prefix_from_token(&tok.text) {
                self.bump();
                let operand = self.parse_unary()?;
                let span = tok.span.to(operand.span);
                return Ok(Expr::new(ExprKind::Unary(op, Box::new(operand)), span));
            }
            if tok.text == "(" {
                if let Some((ty, close, guess)) = self.type_in_parens(self.pos) {
                    let next = self.token(close + 1);
                    let is_cast = match guess {
                        TypeGuess::Strong => true,
                        TypeGuess::Weak => matches!(
                            next.kind,
                            TokKind::Ident | TokKind::Number | TokKind::Char | TokKind::Str
                        ),
                    };
                    if is_cast {
                        self.seek(close + 1);
                        let operand = self.parse_unary()?;
                        let span = tok.span.to(operand.span);
                        return Ok(Expr::new(ExprKind::Cast(ty, Box::new(operand)), span));
                    }
                }
            }
        }
        if tok.is_ident("sizeof") {
            self.bump();
            if self.is_punct("(") {
                if let Some((ty, close, TypeGuess::Strong)) = self.type_in_parens(self.pos) {
                    let end = self.token(close).span;
                    self.seek(close + 1);
                    return Ok(Expr::new(
                        ExprKind::Sizeof(SizeofArg::Type(ty)),
                        tok.span.to(end),
                    ));
                }
            }
            let operand = self.parse_unary()?;
            let span = tok.span.to(operand.span);
            return Ok(Expr::new(
                ExprKind::Sizeof(SizeofArg::Expr(Box::new(operand))),
                span,
            ));
        }
        let primary = self.parse_primary()?;
        self.parse_postfix(primary)
    }

    /// If the `(` at index `open` encloses something shaped like a type
    /// name, returns its normalised text, the index of the `)` and how sure
    /// we are.
    fn type_in_parens(&self, open: usize) -> Option<(String, usize, TypeGuess)> {
        let mut words: Vec<&str> = Vec::new();
        let mut parts: Vec<&str> = Vec::new();
        let mut stars = 0usize;
        let mut strong = false;
        let mut i = open + 1;
        let mut expect_name = true; // after `(` or `::`
        loop {
            let tok = self.token(i);
            match tok.kind {
                TokKind::Ident if tok.text == "sizeof" => return None,
                TokKind::Ident if stars == 0 => {
                    if !expect_name && parts.last() != Some(&"::") {
                        // Two words in a row: `unsigned long`, `struct s`.
                        strong = true;
                    }
                    words.push(&tok.text);
                    parts.push(&tok.text);
                    expect_name = false;
                }
                TokKind::Ident if QUALIFIERS.contains(&tok.text.as_str()) => {
                    parts.push(&tok.text);
                }
                TokKind::Punct if tok.text == "::" && !expect_name => {
                    parts.push("::");
                    expect_name = true;
                }
                TokKind::Punct if tok.text == "*" && !expect_name => {
                    stars += 1;
                    parts.push("*");
                }
                TokKind::Punct if tok.text == ")" && !expect_name => break,
                _ => return None,
            }
            i += 1;
        }
        if words.is_empty() {
            return None;
        }
        // The last name decides for qualified names (`std::size_t`).
        let last_word = words.last().copied().unwrap_or("");
        if stars > 0 || words.iter().any(|w| is_type_word(w)) || is_type_word(last_word) {
            strong = true;
        }
        // A single unknown (possibly qualified) name is only a guess.
        let guess = if strong {
            TypeGuess::Strong
        } else {
            TypeGuess::Weak
        };
        Some((type_text(parts), i, guess))
    }

    /// A possibly `::`-qualified name starting at the current identifier.
    pub(crate) fn parse_qualified_name(&mut self) -> (String, Span) {
        let first = self.bump();
        let mut name = first.text;
        let mut span = first.span;
        while self.is_punct("::") && self.peek_at(1).kind == TokKind::Ident {
            self.bump();
            let part = self.bump();
            name.push_str("::");
            name.push_str(&part.text);
            span = span.to(part.span);
        }
        (name, span)
    }

    fn parse_primary(&mut self) -> PResult<Expr> {
        let tok = self.peek().clone();
        match tok.kind {
            TokKind::Ident => {
                let (name, span) = self.parse_qualified_name();
                Ok(Expr::new(ExprKind::Ident(name), span))
            }
            TokKind::Number => {
                self.bump();
                let kind = if is_float_literal(&tok.text) {
                    ExprKind::Float(tok.text)
                } else {
                    ExprKind::Int(tok.text)
                };
                Ok(Expr::new(kind, tok.span))
            }
            TokKind::Char => {
                self.bump();
                Ok(Expr::new(ExprKind::Char(tok.text), tok.span))
            }
            TokKind::Str => {
                self.bump();
                let mut text = tok.text;
                let mut span = tok.span;
                while self.peek().kind == TokKind::Str {
                    let next = self.bump();
                    text.push(' ');
                    text.push_str(&next.text);
                    span = span.to(next.span);
                }
                Ok(Expr::new(ExprKind::Str(text), span))
            }
            TokKind::Punct if tok.text == "(" => {
                self.bump();
                let inner = self.parse_expr()?;
                if !self.is_punct(")") {
                    let msg = if self.is_punct(",") {
                        "expected `)`; the comma operator is not supported here".to_string()
                    } else {
                        "expected `)` to close `(`".to_string()
                    };
                    return Err(self.error_here(msg));
                }
                let close = self.bump();
                Ok(Expr::new(
                    ExprKind::Paren(Box::new(inner)),
                    tok.span.to(close.span),
                ))
            }
            _ => Err(self.error_here("expected an expression".to_string())),
        }
    }

    fn parse_postfix(&mut self, expr: Expr) -> PResult<Expr> {
        let saved = self.depth();
        let result = self.parse_postfix_inner(expr);
        self.restore_depth(saved);
        result
    }

    fn parse_postfix_inner(&mut self, mut expr: Expr) -> PResult<Expr> {
        loop {
            let tok = self.peek().clone();
            if tok.kind != TokKind::Punct {
                return Ok(expr);
            }
            if matches!(tok.text.as_str(), "[" | "(" | "." | "->" | "++" | "--") {
                self.enter()?;
            }
            match tok.text.as_str() {
                "[" => {
                    self.bump();
                    let index = self.parse_expr()?;
                    let close = self.expect_punct("]", "to close `[`")?;
                    let span = expr.span.to(close);
                    expr = Expr::new(ExprKind::Index(Box::new(expr), Box::new(index)), span);
                }
                "(" => {
                    self.bump();
                    let mut args = Vec::new();
                    if !self.is_punct(")") {
                        loop {
                            args.push(self.parse_expr()?);
                            if !self.eat_punct(",") {
                                break;
                            }
                        }
                    }
                    let close = self.expect_punct(")", "to close the argument list")?;
                    let span = expr.span.to(close);
                    expr = Expr::new(ExprKind::Call(Box::new(expr), args), span);
                }
                "." | "->" => {
                    self.bump();
                    let name = self.peek().clone();
                    if name.kind != TokKind::Ident {
                        return Err(
                            self.error_here(format!("expected a member name after `{}`", tok.text))
                        );
                    }
                    self.bump();
                    let span = expr.span.to(name.span);
                    expr = Expr::new(
                        ExprKind::Member(Box::new(expr), name.text, tok.text == "->"),
                        span,
                    );
                }
                "++" | "--" => {
                    self.bump();
                    let op = if tok.text == "++" {
                        UnaryOp::PostInc
                    } else {
                        UnaryOp::PostDec
                    };
                    let span = expr.span.to(tok.span);
                    expr = Expr::new(ExprKind::Unary(op, Box::new(expr)), span);
                }
                _ => return Ok(expr),
            }
        }
    }
}

/// True when a preprocessing number is a floating literal.
fn is_float_literal(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if lower.starts_with("0x") {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e')
    }
}
