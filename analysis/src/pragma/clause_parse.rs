//! Clause parsing: one function per clause shape, with error recovery at
//! the clause's closing parenthesis.

use super::ast::{
    Clause, ClauseKind, DefaultKind, DefaultmapBehavior, DefaultmapCategory, DependKind,
    DeviceModifier, DeviceType, DoacrossKind, Expr, IteratorDef, MapModifier, MapType,
    MotionModifier, ReductionModifier, ReductionOp, ScheduleKind, ScheduleModifier,
};
use super::clauses::{arg_req, clause_allowed, suggest_clause, ArgReq};
use super::cursor::{PResult, ParseError, Parser};
use super::directives::DirectiveKind;
use super::expr::type_text;
use super::lexer::TokKind;
use super::Span;

impl Parser {
    /// Parses one clause starting at the current identifier. Returns `None`
    /// when the clause is unknown or has a syntax error (after reporting it
    /// and skipping past its closing parenthesis).
    pub fn parse_clause(&mut self, dir: DirectiveKind) -> Option<Clause> {
        let name_tok = self.bump();
        let name = name_tok.text.clone();
        let name_span = name_tok.span;
        let Some(req) = arg_req(&name) else {
            let mut msg = format!("unknown clause `{name}` on `{}`", dir.name());
            if let Some(s) = suggest_clause(dir, &name) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            self.error(name_span, msg);
            if self.is_punct("(") {
                self.skip_balanced();
            }
            return None;
        };
        if !clause_allowed(dir, &name) {
            self.error(
                name_span,
                format!("clause `{name}` is not allowed on `{}`", dir.name()),
            );
        }
        let has_parens = self.is_punct("(");
        let bare = |kind: ClauseKind| {
            Some(Clause {
                kind,
                span: name_span,
                name_span,
            })
        };
        match req {
            ArgReq::None => {
                // On `flush`, `acq_rel (list)`: the list belongs to the directive.
                if has_parens && dir != DirectiveKind::Flush {
                    let open = self.peek().span;
                    self.skip_balanced();
                    let span = open.to(Span::new(open.start, self.prev_end()));
                    self.error(span, format!("clause `{name}` does not take an argument"));
                }
                return bare(if name == "nowait" {
                    ClauseKind::Nowait
                } else {
                    ClauseKind::Other { name, raw: None }
                });
            }
            ArgReq::Optional if !has_parens => {
                return bare(if name == "indirect" {
                    ClauseKind::Indirect(None)
                } else {
                    ClauseKind::Other { name, raw: None }
                });
            }
            ArgReq::Required if !has_parens => {
                self.error(
                    name_span,
                    format!("clause `{name}` requires an argument in parentheses"),
                );
                return None;
            }
            ArgReq::Optional | ArgReq::Required => {}
        }

        let open_idx = self.pos;
        self.bump();
        let close_idx = self.matching_paren(open_idx);
        let end_idx = close_idx.unwrap_or(usize::MAX);
        let result = self.parse_clause_args(&name, req, dir, end_idx);
        let kind = match result {
            Ok(kind) => kind,
            Err(err) => {
                self.report(err);
                self.seek(end_idx.saturating_add(1));
                return None;
            }
        };
        if self.is_punct(")") {
            let close = self.bump();
            return Some(Clause {
                kind,
                span: name_span.to(close.span),
                name_span,
            });
        }
        if let Some(close) = close_idx {
            // Tokens left before the matching `)`.
            let what = if kind.items().is_empty() {
                format!("expected `)` to close `{name}(`")
            } else {
                "expected `,` or `)` after list item".to_string()
            };
            let err = self.error_here(what);
            self.report(err);
            self.seek(close + 1);
            return None;
        }
        // No matching `)` anywhere: report where it was expected, keep the
        // clause and go on with the next token.
        let at = self.prev_end();
        let mut message = format!("expected `)` to close `{name}(`");
        if !self.at_eof() {
            message.push_str(&format!(", found {}", self.peek().describe()));
        }
        self.error(Span::new(at, at), message);
        Some(Clause {
            kind,
            span: name_span.to(Span::new(at, at)),
            name_span,
        })
    }

    /// Parses what is inside the parentheses (the cursor is after `(`); the
    /// caller checks the `)`. `end` is the index of the matching `)` or
    /// `usize::MAX`.
    fn parse_clause_args(
        &mut self,
        name: &str,
        req: ArgReq,
        dir: DirectiveKind,
        end: usize,
    ) -> PResult<ClauseKind> {
        let metadirective = matches!(
            dir,
            DirectiveKind::Metadirective | DirectiveKind::BeginMetadirective
        );
        Ok(match name {
            "map" => self.parse_map(end)?,
            "to" | "from" => {
                let (modifiers, items) = self.parse_motion(end)?;
                if name == "to" {
                    ClauseKind::To { modifiers, items }
                } else {
                    ClauseKind::From { modifiers, items }
                }
            }
            "private" => ClauseKind::Private(self.parse_list()?),
            "firstprivate" => ClauseKind::Firstprivate(self.parse_list()?),
            "shared" => ClauseKind::Shared(self.parse_list()?),
            "is_device_ptr" => ClauseKind::IsDevicePtr(self.parse_list()?),
            "has_device_addr" => ClauseKind::HasDeviceAddr(self.parse_list()?),
            "use_device_ptr" => ClauseKind::UseDevicePtr(self.parse_list()?),
            "use_device_addr" => ClauseKind::UseDeviceAddr(self.parse_list()?),
            "enter" => ClauseKind::Enter(self.parse_list()?),
            "link" => ClauseKind::Link(self.parse_list()?),
            "lastprivate" => {
                let conditional =
                    self.peek().is_ident("conditional") && self.peek_at(1).is_punct(":");
                if conditional {
                    self.bump();
                    self.bump();
                }
                ClauseKind::Lastprivate {
                    conditional,
                    items: self.parse_list()?,
                }
            }
            "reduction" | "in_reduction" | "task_reduction" => self.parse_reduction(name)?,
            "defaultmap" => {
                let behavior = self.keyword(
                    "defaultmap behavior",
                    DefaultmapBehavior::from_name,
                    &DefaultmapBehavior::expected_list(),
                )?;
                let category = if self.eat_punct(":") {
                    Some(self.keyword(
                        "variable category",
                        DefaultmapCategory::from_name,
                        &DefaultmapCategory::expected_list(),
                    )?)
                } else {
                    None
                };
                ClauseKind::Defaultmap { behavior, category }
            }
            "default" if !metadirective => ClauseKind::Default(self.keyword(
                "data-sharing attribute",
                DefaultKind::from_name,
                &DefaultKind::expected_list(),
            )?),
            "depend" => self.parse_depend()?,
            "doacross" => self.parse_doacross()?,
            "device" => {
                let modifier = match DeviceModifier::from_name(&self.peek().text) {
                    Some(m)
                        if self.peek().kind == TokKind::Ident && self.peek_at(1).is_punct(":") =>
                    {
                        self.bump();
                        self.bump();
                        Some(m)
                    }
                    _ => None,
                };
                ClauseKind::Device {
                    modifier,
                    expr: self.parse_expr()?,
                }
            }
            "if" => self.parse_if()?,
            "collapse" => ClauseKind::Collapse(self.parse_expr()?),
            "thread_limit" => ClauseKind::ThreadLimit(self.parse_expr()?),
            "num_threads" => ClauseKind::NumThreads(self.parse_expr()?),
            "num_teams" if !self.has_lower_bound(end) => ClauseKind::NumTeams(self.parse_expr()?),
            "schedule" => self.parse_schedule()?,
            "dist_schedule" => {
                let kind = self.keyword("dist_schedule kind", dist_kind, "static")?;
                let chunk = if self.eat_punct(",") {
                    Some(self.parse_expr()?)
                } else {
                    None
                };
                ClauseKind::DistSchedule { kind, chunk }
            }
            "device_type" => ClauseKind::DeviceType(self.keyword(
                "device type",
                DeviceType::from_name,
                &DeviceType::expected_list(),
            )?),
            "indirect" => ClauseKind::Indirect(Some(self.parse_expr()?)),
            _ => {
                let start = self.pos;
                if end == usize::MAX {
                    // Unclosed: the text to the end could hold unbalanced
                    // parentheses, which would not print back faithfully.
                    self.seek(end);
                    let at = self.prev_end();
                    return Err(ParseError {
                        span: Span::new(at, at),
                        message: format!("expected `)` to close `{name}(`"),
                    });
                }
                let raw = self.raw_text(start, end);
                if raw.is_empty() && req == ArgReq::Required {
                    return Err(self.error_here(format!("expected an argument for `{name}`")));
                }
                self.seek(end);
                ClauseKind::Other {
                    name: name.to_string(),
                    raw: Some(raw),
                }
            }
        })
    }

    /// An identifier from a fixed set: "unknown WHAT `x`; expected one of
    /// LIST" otherwise.
    fn keyword<T>(
        &mut self,
        what: &str,
        parse: fn(&str) -> Option<T>,
        expected: &str,
    ) -> PResult<T> {
        let tok = self.peek().clone();
        if tok.kind != TokKind::Ident {
            return Err(self.error_here(format!("expected a {what} ({expected})")));
        }
        match parse(&tok.text) {
            Some(v) => {
                self.bump();
                Ok(v)
            }
            None => {
                let list = if expected.contains(',') {
                    format!("one of {expected}")
                } else {
                    format!("`{expected}`")
                };
                Err(ParseError {
                    span: tok.span,
                    message: format!("unknown {what} `{}`; expected {list}", tok.text),
                })
            }
        }
    }

    /// `map([modifier[,]... [map-type] :] list)`.
    fn parse_map(&mut self, end: usize) -> PResult<ClauseKind> {
        let mut modifiers = Vec::new();
        let mut map_type = None;
        if let Some(colon) = self.top_level_colon(end) {
            while self.pos < colon {
                let tok = self.peek().clone();
                if tok.kind != TokKind::Ident {
                    return Err(
                        self.error_here("expected a map-type modifier or map type".to_string())
                    );
                }
                let modifier = match tok.text.as_str() {
                    "always" => Some(MapModifier::Always),
                    "close" => Some(MapModifier::Close),
                    "present" => Some(MapModifier::Present),
                    "ompx_hold" => Some(MapModifier::OmpxHold),
                    _ => None,
                };
                if let Some(m) = modifier {
                    self.bump();
                    if modifiers.contains(&m) {
                        self.warning(
                            tok.span,
                            format!("duplicate map-type modifier `{}`", tok.text),
                        );
                    }
                    modifiers.push(m);
                } else if tok.text == "mapper" {
                    modifiers.push(MapModifier::Mapper(self.parse_mapper()?));
                } else if tok.text == "iterator" {
                    modifiers.push(MapModifier::Iterator(self.parse_iterator()?));
                } else if let Some(t) = MapType::from_name(&tok.text) {
                    if map_type.is_some() {
                        return Err(ParseError {
                            span: tok.span,
                            message: "more than one map type in `map`".to_string(),
                        });
                    }
                    self.bump();
                    map_type = Some(t);
                } else if self.pos + 1 == colon {
                    return Err(ParseError {
                        span: tok.span,
                        message: format!(
                            "unknown map type `{}`; expected one of {}",
                            tok.text,
                            MapType::expected_list()
                        ),
                    });
                } else {
                    return Err(ParseError {
                        span: tok.span,
                        message: format!(
                            "unknown map-type modifier `{}`; expected one of always, close, present, mapper, iterator",
                            tok.text
                        ),
                    });
                }
                self.eat_punct(",");
            }
            self.expect_punct(":", "after the map type")?;
        }
        let items = self.parse_list()?;
        Ok(ClauseKind::Map {
            modifiers,
            map_type,
            items,
        })
    }

    /// `to/from([modifier[,]... :] list)`.
    fn parse_motion(&mut self, end: usize) -> PResult<(Vec<MotionModifier>, Vec<super::ListItem>)> {
        let mut modifiers = Vec::new();
        if let Some(colon) = self.top_level_colon(end) {
            while self.pos < colon {
                let tok = self.peek().clone();
                match tok.text.as_str() {
                    "present" if tok.kind == TokKind::Ident => {
                        self.bump();
                        modifiers.push(MotionModifier::Present);
                    }
                    "mapper" if tok.kind == TokKind::Ident => {
                        modifiers.push(MotionModifier::Mapper(self.parse_mapper()?));
                    }
                    "iterator" if tok.kind == TokKind::Ident => {
                        modifiers.push(MotionModifier::Iterator(self.parse_iterator()?));
                    }
                    _ if tok.kind == TokKind::Ident => {
                        return Err(ParseError {
                            span: tok.span,
                            message: format!(
                                "unknown motion modifier `{}`; expected one of present, mapper, iterator",
                                tok.text
                            ),
                        });
                    }
                    _ => return Err(self.error_here("expected a motion modifier".to_string())),
                }
                self.eat_punct(",");
            }
            self.expect_punct(":", "after the motion modifiers")?;
        }
        let items = self.parse_list()?;
        Ok((modifiers, items))
    }

    /// `mapper(id)` with the cursor on `mapper`.
    fn parse_mapper(&mut self) -> PResult<String> {
        self.bump();
        self.expect_punct("(", "after `mapper`")?;
        if self.peek().kind != TokKind::Ident {
            return Err(self.error_here("expected a mapper identifier".to_string()));
        }
        let (name, _) = self.parse_qualified_name();
        self.expect_punct(")", "to close `mapper(`")?;
        Ok(name)
    }

    /// `iterator([type] name = begin:end[:step], ...)` with the cursor on
    /// `iterator`.
    fn parse_iterator(&mut self) -> PResult<Vec<IteratorDef>> {
        self.bump();
        self.expect_punct("(", "after `iterator`")?;
        let mut defs = Vec::new();
        loop {
            let mut parts: Vec<String> = Vec::new();
            let mut last_span = self.peek().span;
            loop {
                let tok = self.peek().clone();
                if tok.kind == TokKind::Ident || tok.is_punct("*") || tok.is_punct("::") {
                    last_span = tok.span;
                    parts.push(tok.text);
                    self.bump();
                } else if tok.is_punct("=") {
                    break;
                } else {
                    let what = if parts.is_empty() {
                        "expected an iterator definition (`name = begin:end`)"
                    } else {
                        "expected `=` in iterator definition"
                    };
                    return Err(self.error_here(what.to_string()));
                }
            }
            let name = match parts.pop() {
                Some(n) if n != "*" && n != "::" => n,
                _ => {
                    return Err(ParseError {
                        span: last_span,
                        message: "expected an iterator name before `=`".to_string(),
                    })
                }
            };
            let ty = if parts.is_empty() {
                None
            } else {
                Some(type_text(parts.iter().map(String::as_str)))
            };
            self.bump(); // `=`
            let begin = self.parse_expr()?;
            self.expect_punct(":", "between the iterator's begin and end")?;
            let end = self.parse_expr()?;
            let step = if self.eat_punct(":") {
                Some(self.parse_expr()?)
            } else {
                None
            };
            defs.push(IteratorDef {
                ty,
                name,
                begin,
                end,
                step,
            });
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(")", "to close `iterator(`")?;
        Ok(defs)
    }

    /// `reduction([modifier,] op: list)`, `in_reduction(op: list)`,
    /// `task_reduction(op: list)`.
    fn parse_reduction(&mut self, name: &str) -> PResult<ClauseKind> {
        let mut modifier = None;
        if name == "reduction"
            && self.peek().kind == TokKind::Ident
            && self.peek_at(1).is_punct(",")
        {
            modifier = Some(self.keyword(
                "reduction modifier",
                ReductionModifier::from_name,
                &ReductionModifier::expected_list(),
            )?);
            self.bump(); // `,`
        }
        let tok = self.peek().clone();
        let op = match tok.kind {
            TokKind::Punct => match ReductionOp::from_token(&tok.text) {
                Some(op) => {
                    self.bump();
                    op
                }
                None => return Err(self.reduction_op_error()),
            },
            TokKind::Ident => {
                let (id, _) = self.parse_qualified_name();
                ReductionOp::from_token(&id).unwrap_or(ReductionOp::Custom(id))
            }
            _ => return Err(self.reduction_op_error()),
        };
        self.expect_punct(":", "after the reduction identifier")?;
        let items = self.parse_list()?;
        Ok(match name {
            "in_reduction" => ClauseKind::InReduction { op, items },
            "task_reduction" => ClauseKind::TaskReduction { op, items },
            _ => ClauseKind::Reduction {
                modifier,
                op,
                items,
            },
        })
    }

    fn reduction_op_error(&self) -> ParseError {
        self.error_here(
            "expected a reduction identifier (+, *, -, &, |, ^, &&, ||, max, min or a declared name)"
                .to_string(),
        )
    }

    /// `depend([iterator(...),] type: list)`, `depend(source)`,
    /// `depend(sink: vector)`.
    fn parse_depend(&mut self) -> PResult<ClauseKind> {
        let mut iterator = None;
        if self.peek().is_ident("iterator") && self.peek_at(1).is_punct("(") {
            iterator = Some(self.parse_iterator()?);
            self.expect_punct(",", "after the iterator modifier")?;
        }
        let tok = self.peek().clone();
        if tok.kind != TokKind::Ident {
            return Err(self.error_here("expected a dependence type".to_string()));
        }
        if let Some(kind) = DoacrossKind::from_name(&tok.text) {
            if iterator.is_some() {
                return Err(ParseError {
                    span: tok.span,
                    message: format!("an iterator modifier cannot be used with `{}`", tok.text),
                });
            }
            self.bump();
            let vector = match kind {
                DoacrossKind::Source => Vec::new(),
                DoacrossKind::Sink => {
                    self.expect_punct(":", "after `sink`")?;
                    self.parse_expr_list()?
                }
            };
            return Ok(ClauseKind::Doacross {
                kind,
                vector,
                legacy_depend: true,
            });
        }
        let Some(kind) = DependKind::from_name(&tok.text) else {
            return Err(ParseError {
                span: tok.span,
                message: format!(
                    "unknown dependence type `{}`; expected one of {}, source, sink",
                    tok.text,
                    DependKind::expected_list()
                ),
            });
        };
        self.bump();
        self.expect_punct(":", "after the dependence type")?;
        let items = self.parse_list()?;
        Ok(ClauseKind::Depend {
            kind,
            iterator,
            items,
        })
    }

    /// `doacross(source:)`, `doacross(source: omp_cur_iteration)`,
    /// `doacross(sink: vector)`.
    fn parse_doacross(&mut self) -> PResult<ClauseKind> {
        let kind = self.keyword(
            "dependence type",
            DoacrossKind::from_name,
            &DoacrossKind::expected_list(),
        )?;
        self.expect_punct(":", "after the dependence type")?;
        let vector = if self.is_punct(")") {
            Vec::new()
        } else {
            self.parse_expr_list()?
        };
        Ok(ClauseKind::Doacross {
            kind,
            vector,
            legacy_depend: false,
        })
    }

    /// One or more comma-separated expressions.
    fn parse_expr_list(&mut self) -> PResult<Vec<Expr>> {
        let mut out = vec![self.parse_expr()?];
        while self.eat_punct(",") {
            out.push(self.parse_expr()?);
        }
        Ok(out)
    }

    /// `if([directive-name-modifier:] expr)`.
    fn parse_if(&mut self) -> PResult<ClauseKind> {
        let mut i = self.pos;
        while self.token(i).kind == TokKind::Ident {
            i += 1;
        }
        let mut modifier = None;
        if i > self.pos && self.token(i).is_punct(":") {
            let words: Vec<String> = (self.pos..i).map(|k| self.token(k).text.clone()).collect();
            let text = words.join(" ");
            let span = self.peek().span.to(self.token(i - 1).span);
            if DirectiveKind::from_name(&text).is_none() {
                return Err(ParseError {
                    span,
                    message: format!("unknown directive-name modifier `{text}` in `if` clause"),
                });
            }
            modifier = Some(text);
            self.seek(i + 1);
        }
        Ok(ClauseKind::If {
            modifier,
            expr: self.parse_expr()?,
        })
    }

    /// `schedule([modifier[, modifier]:] kind[, chunk])`.
    fn parse_schedule(&mut self) -> PResult<ClauseKind> {
        // Modifiers: `ident (, ident)* :`.
        let mut i = self.pos;
        let mut has_modifiers = false;
        while self.token(i).kind == TokKind::Ident {
            if self.token(i + 1).is_punct(":") {
                has_modifiers = true;
                break;
            }
            if !self.token(i + 1).is_punct(",") {
                break;
            }
            i += 2;
        }
        let mut modifiers = Vec::new();
        if has_modifiers {
            loop {
                modifiers.push(self.keyword(
                    "schedule modifier",
                    ScheduleModifier::from_name,
                    &ScheduleModifier::expected_list(),
                )?);
                if !self.eat_punct(",") {
                    break;
                }
            }
            self.expect_punct(":", "after the schedule modifiers")?;
        }
        let kind = self.keyword(
            "schedule kind",
            ScheduleKind::from_name,
            &ScheduleKind::expected_list(),
        )?;
        let chunk = if self.eat_punct(",") {
            Some(self.parse_expr()?)
        } else {
            None
        };
        Ok(ClauseKind::Schedule {
            modifiers,
            kind,
            chunk,
        })
    }

    /// True for `num_teams(lower: upper)`: a top-level `:` not preceded by
    /// a `?`.
    fn has_lower_bound(&self, end: usize) -> bool {
        match self.top_level_colon(end) {
            Some(colon) => !(self.pos..colon).any(|i| self.token(i).is_punct("?")),
            None => false,
        }
    }
}

fn dist_kind(name: &str) -> Option<ScheduleKind> {
    (name == "static").then_some(ScheduleKind::Static)
}
