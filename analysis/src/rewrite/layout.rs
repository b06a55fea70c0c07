//! From insertions to text edits: merging, braces, indentation and line splitting.
//!
//! Everything the rewriter writes is either *inline* text glued to existing code (` {` after an
//! `if (c)`, clauses appended to a pragma) or a *line* (a directive, `{`, `}`). Lines are
//! attached to a position next to a statement and grouped by the blank gap around that position
//! (a "cluster"): a gap at the start of a line gets the lines in front of it, a gap at the end of
//! a line gets them after it, and a gap between two pieces of code is replaced by a line break,
//! the lines, and a line break with the indentation of the code that follows. Inside a cluster
//! the lines are ordered by nesting: what closes inner statements first, then what closes outer
//! ones, then what opens outer statements, then what opens inner ones.
//!
//! Added braces that enclose whole lines (a `target data { }` block, or braces around a
//! statement that had to move to a line of its own) form *ranges*; every line whose code starts
//! inside `n` ranges is re-indented by `n` indent units, and every written line is indented to
//! the number of ranges around it.

use std::collections::BTreeMap;

use super::source::{self, is_blank, Kind, SourceText};
use super::{Anchor, Clause, Insertion, Side};
use crate::pragma::{parse_pragma, Span};
use crate::text::TextEdit;

pub(super) fn render(src: &str, insertions: &[Insertion]) -> Vec<TextEdit> {
    if src.len() >= u32::MAX as usize {
        return Vec::new();
    }
    let t = SourceText::cached(src);
    let mut p = Planner::new(&t);
    for ins in insertions {
        p.add(ins);
    }
    p.finish()
}

/// One directive to write, its clauses merged.
struct Dir {
    name: String,
    clauses: Vec<Clause>,
}

/// A statement that something is written next to.
struct Stmt {
    start: usize,
    end: usize,
    /// `end`, extended over the statement's `;` when the span stops before it.
    end_ext: usize,
    in_compound: bool,
    before: Vec<Dir>,
    after: Vec<Dir>,
    wrap: Option<Wrap>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum WrapKind {
    /// ` {` glued after the controlling `)`/`else`/`do`; the statement stays on its own line.
    OwnLine,
    /// ` {` glued after the controlling code; the statement moves to a new line.
    SameLine,
    /// What precedes the statement is a preprocessor line (an OpenMP construct's body): `{` and
    /// `}` go on lines of their own, at the statement's indentation, and the statement moves
    /// in by one unit.
    Lines,
    /// As `Lines`, when the statement is already indented deeper than the (indented) directive
    /// line: the braces take the directive line's indentation and the statement stays.
    LinesAtKw,
}

struct Wrap {
    kind: WrapKind,
    /// Where ` {` is glued (after the last code byte before the statement).
    q: usize,
    /// A byte on the line that holds the controlling keyword (its `(`, or the keyword).
    kw: usize,
    /// Keyword that may follow the closing brace on its line (`} else`, `} while`).
    join: Option<&'static str>,
}

struct Region {
    first: usize,
    last: usize,
    clauses: Vec<Clause>,
    braced: bool,
    live: bool,
}

/// Braces that enclose whole lines; `rank` orders ranges with the same extent (0 is outer).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Range {
    start: usize,
    end: usize,
    rank: u8,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum ClusterKind {
    LineStart,
    LineEnd,
    /// Between code: the blank gap `[key, ge)`.
    Mid {
        ge: usize,
    },
}

enum Body {
    Line {
        indent: String,
        text: String,
    },
    /// Only forces a line break (a statement moved off its controlling line).
    Break,
    /// A closing brace that may share its line with a following `else`/`while`.
    CloseWrap {
        indent: String,
        join: Option<&'static str>,
    },
}

struct Item {
    /// 0: closes something; 1: opens something.
    class: u8,
    key: (i64, i64, u8, i64),
    seq: usize,
    body: Body,
}

/// Output operation before merging into edits.
struct Op {
    start: usize,
    end: usize,
    /// At one offset: 0 appended clauses, 1 glued braces, 2 clusters, 3 re-indentation.
    rank: u8,
    seq: usize,
    text: String,
    /// Re-indentation, dropped when it falls inside a gap that a cluster replaces.
    reindent: bool,
}

struct Planner<'t, 'a> {
    t: &'t SourceText<'a>,
    unit: String,
    col0: bool,
    stmts: Vec<Stmt>,
    by_span: BTreeMap<(usize, usize), usize>,
    regions: Vec<Region>,
    appends: Vec<(Span, Vec<Clause>)>,
    ranges: Vec<Range>,
}

impl<'t, 'a> Planner<'t, 'a> {
    fn new(t: &'t SourceText<'a>) -> Self {
        Planner {
            t,
            unit: t.scan().unit.get_or_init(|| source::indent_unit(t)).clone(),
            col0: *t.scan().col0.get_or_init(|| source::pragmas_at_column0(t)),
            stmts: Vec::new(),
            by_span: BTreeMap::new(),
            regions: Vec::new(),
            appends: Vec::new(),
            ranges: Vec::new(),
        }
    }

    fn add(&mut self, ins: &Insertion) {
        match ins {
            Insertion::Standalone {
                anchor,
                side,
                directive,
                clauses,
            } => {
                let name = clean(directive);
                if name.is_empty() {
                    return;
                }
                let Some(si) = self.stmt(anchor) else {
                    return;
                };
                let s = &mut self.stmts[si];
                let list = match side {
                    Side::Before => &mut s.before,
                    Side::After => &mut s.after,
                };
                match list.iter_mut().find(|d| d.name == name) {
                    Some(d) => merge_clauses(&mut d.clauses, clauses),
                    None => {
                        let mut merged = Vec::new();
                        merge_clauses(&mut merged, clauses);
                        list.push(Dir {
                            name,
                            clauses: merged,
                        });
                    }
                }
            }
            Insertion::DataRegion {
                first,
                last,
                clauses,
            } => {
                if first.stmt != last.stmt && (!first.in_compound || !last.in_compound) {
                    return;
                }
                let (Some(f), Some(l)) = (self.valid(first.stmt), self.valid(last.stmt)) else {
                    return;
                };
                if f.0 > l.0 || f.1 > l.1 || (f.0 != l.0 && f.1 > l.0) {
                    return;
                }
                let (Some(fi), Some(li)) = (self.stmt(first), self.stmt(last)) else {
                    return;
                };
                match self
                    .regions
                    .iter_mut()
                    .find(|r| r.first == fi && r.last == li)
                {
                    Some(r) => merge_clauses(&mut r.clauses, clauses),
                    None => {
                        let mut merged = Vec::new();
                        merge_clauses(&mut merged, clauses);
                        self.regions.push(Region {
                            first: fi,
                            last: li,
                            clauses: merged,
                            braced: true,
                            live: true,
                        });
                    }
                }
            }
            Insertion::AppendClauses { directive, clauses } => {
                // A directive span starts at its `#` and ends after a code token.
                let Some((s, e)) = self.valid(*directive) else {
                    return;
                };
                if self.t.bytes[s] != b'#' || self.t.kind(e - 1) != Kind::Code {
                    return;
                }
                match self.appends.iter_mut().find(|(d, _)| d == directive) {
                    Some((_, c)) => merge_clauses(c, clauses),
                    None => {
                        let mut merged = Vec::new();
                        merge_clauses(&mut merged, clauses);
                        self.appends.push((*directive, merged));
                    }
                }
            }
        }
    }

    /// The span as byte offsets when it is usable: in range, on character boundaries, not
    /// empty, starting in code.
    fn valid(&self, span: Span) -> Option<(usize, usize)> {
        let (s, e) = (span.start as usize, span.end as usize);
        let src = self.t.src;
        (s < e
            && e <= src.len()
            && src.is_char_boundary(s)
            && src.is_char_boundary(e)
            && self.t.kind(s) == Kind::Code)
            .then_some((s, e))
    }

    fn stmt(&mut self, a: &Anchor) -> Option<usize> {
        let (s, e) = self.valid(a.stmt)?;
        if let Some(&i) = self.by_span.get(&(s, e)) {
            self.stmts[i].in_compound &= a.in_compound;
            return Some(i);
        }
        let i = self.stmts.len();
        self.stmts.push(Stmt {
            start: s,
            end: e,
            end_ext: self.end_ext(s, e),
            in_compound: a.in_compound,
            before: Vec::new(),
            after: Vec::new(),
            wrap: None,
        });
        self.by_span.insert((s, e), i);
        Some(i)
    }

    /// Extends a statement end over whitespace and its `;` when the next non-blank is `;`.
    fn end_ext(&self, start: usize, end: usize) -> usize {
        let b = self.t.bytes;
        if end <= start || b[end - 1] == b';' {
            return end;
        }
        let mut j = end;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < b.len() && b[j] == b';' && self.t.kind(j) == Kind::Code {
            j + 1
        } else {
            end
        }
    }

    /// A statement the `target data` pragma can govern without braces: a loop, a compound
    /// statement or an OpenMP construct with a body.
    fn block_like(&self, s: &Stmt) -> bool {
        let t = self.t;
        let at = s.start;
        if t.bytes[at] == b'{' {
            return true;
        }
        if ["for", "while", "do"].iter().any(|k| t.keyword_at(at, k)) {
            return true;
        }
        if t.bytes[at] != b'#' {
            return false;
        }
        // The logical pragma line (joined over `\` continuations).
        let mut line = t.line_of(at);
        while t.continues(line) && line + 1 < t.line_count() {
            line += 1;
        }
        let end = t.line_end(line).max(at);
        parse_pragma(&t.src[at..end], at as u32)
            .directive
            .is_some_and(|d| d.has_associated_statement())
    }

    fn finish(mut self) -> Vec<TextEdit> {
        self.decide_regions();
        self.decide_wraps();
        self.collect_ranges();
        let mut ops = Vec::new();
        let mut seq = 0usize;
        let mut suppressed = Vec::new();
        self.cluster_ops(&mut ops, &mut seq, &mut suppressed);
        self.inline_ops(&mut ops, &mut seq);
        self.reindent_ops(&mut ops, &mut seq);
        merge_ops(ops, &suppressed)
    }

    fn decide_regions(&mut self) {
        for i in 0..self.regions.len() {
            let r = &self.regions[i];
            let s = &self.stmts[r.first];
            let braced = r.first != r.last
                || !self.block_like(s)
                || !s.before.is_empty()
                || !s.after.is_empty();
            self.regions[i].braced = braced;
        }
        // Braced regions must nest; drop one that crosses an earlier (outer) one.
        let mut order: Vec<usize> = (0..self.regions.len())
            .filter(|&i| self.regions[i].braced)
            .collect();
        order.sort_by_key(|&i| {
            let (s, e) = self.region_extent(i);
            (s, std::cmp::Reverse(e), i)
        });
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for i in order {
            let (s, e) = self.region_extent(i);
            while stack.last().is_some_and(|&(_, te)| te <= s) {
                stack.pop();
            }
            if stack.last().is_some_and(|&(_, te)| e > te) {
                self.regions[i].live = false;
                continue;
            }
            stack.push((s, e));
        }
    }

    fn region_extent(&self, i: usize) -> (usize, usize) {
        let r = &self.regions[i];
        (self.stmts[r.first].start, self.stmts[r.last].end_ext)
    }

    fn decide_wraps(&mut self) {
        for si in 0..self.stmts.len() {
            let s = &self.stmts[si];
            if s.in_compound {
                continue;
            }
            let mut needed = !s.before.is_empty() || !s.after.is_empty();
            let mut in_sequence = false;
            for r in self.regions.iter().filter(|r| r.live) {
                if r.first == si || r.last == si {
                    needed = true;
                    in_sequence |= r.first != r.last;
                }
            }
            if needed && !in_sequence {
                self.stmts[si].wrap = self.make_wrap(si);
            }
        }
    }

    fn make_wrap(&self, si: usize) -> Option<Wrap> {
        let t = self.t;
        let s = &self.stmts[si];
        let qi = t.prev_code(s.start)?;
        if !t.bytes[qi].is_ascii() {
            return None;
        }
        let q = qi + 1;
        let q_line = t.line_of(qi);
        let q_line_first = t.first_nonblank(q_line).unwrap_or(qi);
        let preproc = t.bytes[q_line_first] == b'#' || (q_line > 0 && t.continues(q_line - 1));
        if preproc {
            let kw_indent = t.indent_of_line(q_line);
            let s_indent = t.indent_of_line(t.line_of(s.start));
            let deeper = !kw_indent.is_empty()
                && s_indent.len() > kw_indent.len()
                && s_indent.starts_with(kw_indent);
            return Some(Wrap {
                kind: if deeper {
                    WrapKind::LinesAtKw
                } else {
                    WrapKind::Lines
                },
                q,
                kw: q_line_first,
                join: None,
            });
        }
        let (kw, join) = match t.bytes[qi] {
            b')' => (t.matching_open_paren(qi).unwrap_or(qi), Some("else")),
            b':' => (qi, None),
            _ => match t.word_before(q) {
                "else" => (qi, None),
                "do" => (qi, Some("while")),
                _ => return None,
            },
        };
        let kind = if q_line == t.line_of(s.start) {
            WrapKind::SameLine
        } else {
            WrapKind::OwnLine
        };
        Some(Wrap { kind, q, kw, join })
    }

    fn collect_ranges(&mut self) {
        let mut ranges = Vec::new();
        for s in &self.stmts {
            if let Some(w) = &s.wrap {
                if matches!(w.kind, WrapKind::SameLine | WrapKind::Lines) {
                    ranges.push(Range {
                        start: s.start,
                        end: s.end_ext,
                        rank: 0,
                    });
                }
            }
        }
        for i in 0..self.regions.len() {
            let r = &self.regions[i];
            if r.live && r.braced {
                let (start, end) = self.region_extent(i);
                ranges.push(Range {
                    start,
                    end,
                    rank: 1,
                });
            }
        }
        self.ranges = ranges;
    }

    /// Ranges strictly around `r` (for equal extents, those of lower rank).
    fn depth(&self, r: Range) -> usize {
        self.ranges
            .iter()
            .filter(|o| {
                o.start <= r.start
                    && r.end <= o.end
                    && ((o.start, o.end) != (r.start, r.end) || o.rank < r.rank)
            })
            .count()
    }

    /// Ranges around the whole statement.
    fn level_of(&self, s: &Stmt) -> usize {
        self.ranges
            .iter()
            .filter(|o| o.start <= s.start && s.end_ext <= o.end)
            .count()
    }

    /// Ranges around one offset.
    fn level_at(&self, p: usize) -> usize {
        self.ranges
            .iter()
            .filter(|o| o.start <= p && p < o.end)
            .count()
    }

    fn indent(&self, base: &str, levels: usize) -> String {
        let mut s = String::with_capacity(base.len() + levels * self.unit.len());
        s.push_str(base);
        for _ in 0..levels {
            s.push_str(&self.unit);
        }
        s
    }

    /// Output indentation of the line holding the wrap's controlling keyword.
    fn kw_indent(&self, w: &Wrap) -> String {
        let line = self.t.line_of(w.kw);
        self.indent(self.t.indent_of_line(line), self.level_at(w.kw))
    }

    fn pragma_indent(&self, base: &str, levels: usize) -> String {
        if self.col0 {
            String::new()
        } else {
            self.indent(base, levels)
        }
    }

    /// The statement's own indentation in the original: that of its line, or, for an OpenMP
    /// construct whose `#pragma` sits at column 0, that of the code the pragma precedes.
    fn base_indent(&self, s: &Stmt) -> &'a str {
        let t = self.t;
        let line = t.line_of(s.start);
        if t.bytes[s.start] == b'#' && t.line_start(line) == s.start {
            let last = t.line_of(s.end.saturating_sub(1)).max(line);
            for l in line + 1..=last {
                if t.continues(l - 1) {
                    continue;
                }
                if let Some(c) = t.first_nonblank(l) {
                    if t.bytes[c] != b'#' && t.kind(c) == Kind::Code {
                        return t.indent_of_line(l);
                    }
                }
            }
        }
        t.indent_of_line(line)
    }

    /// Where lines after the statement go: the end of its line when only blanks and comments
    /// follow it there, else right after the statement.
    fn after_pos(&self, s: &Stmt) -> usize {
        let t = self.t;
        let e = s.end_ext;
        let eol = t.line_end(t.line_of(e));
        let mut j = e;
        loop {
            while j < eol && is_blank(t.bytes[j]) {
                j += 1;
            }
            if j >= eol {
                return eol;
            }
            let rest = &t.src[j..];
            if rest.starts_with("//") {
                // A `//` comment continued by `\` runs on; the line break is part of it.
                return if eol < t.len() && t.kind(eol) == Kind::Comment {
                    e
                } else {
                    eol
                };
            }
            if rest.starts_with("/*") {
                let k = t.src[j + 2..].find("*/").map_or(t.len(), |p| j + 2 + p + 2);
                if k > eol {
                    return e;
                }
                j = k;
                continue;
            }
            return e;
        }
    }

    fn cluster_of(&self, pos: usize) -> (usize, ClusterKind) {
        let t = self.t;
        let line = t.line_of(pos);
        let (ls, eol) = (t.line_start(line), t.line_end(line));
        let pos = pos.clamp(ls, eol);
        let mut gs = pos;
        while gs > ls && is_blank(t.bytes[gs - 1]) {
            gs -= 1;
        }
        let mut ge = pos;
        while ge < eol && is_blank(t.bytes[ge]) {
            ge += 1;
        }
        if ge == eol {
            (eol, ClusterKind::LineEnd)
        } else if gs == ls {
            (ls, ClusterKind::LineStart)
        } else {
            (gs, ClusterKind::Mid { ge })
        }
    }

    fn dir_text(&self, name: &str, clauses: &[Clause]) -> String {
        format!("#pragma omp {name}{}", clauses_text(clauses))
    }

    fn cluster_ops(
        &self,
        ops: &mut Vec<Op>,
        seq: &mut usize,
        suppressed: &mut Vec<(usize, usize)>,
    ) {
        let mut clusters: BTreeMap<(usize, ClusterKind), Vec<Item>> = BTreeMap::new();
        let push = |clusters: &mut BTreeMap<_, Vec<Item>>, pos: usize, item: Item| {
            clusters.entry(self.cluster_of(pos)).or_default().push(item);
        };
        let mut n = 0usize;
        let mut next = || {
            n += 1;
            n
        };
        for (si, s) in self.stmts.iter().enumerate() {
            let base = self.base_indent(s);
            let lvl = self.level_of(s);
            let open = (s.start as i64, -(s.end_ext as i64));
            let close = (-(s.start as i64), s.end_ext as i64);
            let opening = |sub: u8, subkey: i64, seq: usize, body: Body| Item {
                class: 1,
                key: (open.0, open.1, sub, subkey),
                seq,
                body,
            };
            let closing = |sub: u8, subkey: i64, seq: usize, body: Body| Item {
                class: 0,
                key: (close.0, close.1, sub, subkey),
                seq,
                body,
            };
            let wrap_range = Range {
                start: s.start,
                end: s.end_ext,
                rank: 0,
            };

            // Openings, at the statement's start.
            if let Some(w) = &s.wrap {
                let body = match w.kind {
                    WrapKind::Lines => Some(Body::Line {
                        indent: self.indent(base, self.depth(wrap_range)),
                        text: "{".into(),
                    }),
                    WrapKind::LinesAtKw => Some(Body::Line {
                        indent: self.kw_indent(w),
                        text: "{".into(),
                    }),
                    WrapKind::SameLine => Some(Body::Break),
                    WrapKind::OwnLine => None,
                };
                if let Some(body) = body {
                    push(&mut clusters, s.start, opening(0, 0, next(), body));
                }
            }
            let mut opens: Vec<&Region> = self
                .regions
                .iter()
                .filter(|r| r.live && r.first == si)
                .collect();
            opens.sort_by_key(|r| std::cmp::Reverse(self.stmts[r.last].end_ext));
            for r in opens {
                let subkey = -(self.stmts[r.last].end_ext as i64);
                let range = Range {
                    start: s.start,
                    end: self.stmts[r.last].end_ext,
                    rank: 1,
                };
                let d = if r.braced { self.depth(range) } else { lvl };
                let text = self.dir_text("target data", &r.clauses);
                let indent = self.pragma_indent(base, d);
                push(
                    &mut clusters,
                    s.start,
                    opening(1, subkey, next(), Body::Line { indent, text }),
                );
                if r.braced {
                    let body = Body::Line {
                        indent: self.indent(base, d),
                        text: "{".into(),
                    };
                    push(&mut clusters, s.start, opening(1, subkey, next(), body));
                }
            }
            for d in &s.before {
                let body = Body::Line {
                    indent: self.pragma_indent(base, lvl),
                    text: self.dir_text(&d.name, &d.clauses),
                };
                push(&mut clusters, s.start, opening(2, 0, next(), body));
            }

            // Closings, after the statement.
            let after = self.after_pos(s);
            for d in &s.after {
                let body = Body::Line {
                    indent: self.pragma_indent(base, lvl),
                    text: self.dir_text(&d.name, &d.clauses),
                };
                push(&mut clusters, after, closing(0, 0, next(), body));
            }
            let mut closes: Vec<&Region> = self
                .regions
                .iter()
                .filter(|r| r.live && r.braced && r.last == si)
                .collect();
            closes.sort_by_key(|r| std::cmp::Reverse(self.stmts[r.first].start));
            for r in closes {
                let f = &self.stmts[r.first];
                let range = Range {
                    start: f.start,
                    end: s.end_ext,
                    rank: 1,
                };
                let body = Body::Line {
                    indent: self.indent(self.base_indent(f), self.depth(range)),
                    text: "}".into(),
                };
                push(
                    &mut clusters,
                    after,
                    closing(1, -(f.start as i64), next(), body),
                );
            }
            if let Some(w) = &s.wrap {
                let body = match w.kind {
                    WrapKind::Lines => Body::Line {
                        indent: self.indent(base, self.depth(wrap_range)),
                        text: "}".into(),
                    },
                    WrapKind::LinesAtKw => Body::Line {
                        indent: self.kw_indent(w),
                        text: "}".into(),
                    },
                    WrapKind::OwnLine | WrapKind::SameLine => Body::CloseWrap {
                        indent: self.kw_indent(w),
                        join: w.join,
                    },
                };
                push(&mut clusters, after, closing(2, 0, next(), body));
            }
        }

        let t = self.t;
        let nl = t.nl;
        for ((key, kind), mut items) in clusters {
            items.sort_by_key(|i| (i.class, i.key, i.seq));
            let join = match items.last().map(|i| &i.body) {
                Some(Body::CloseWrap { join, .. }) => *join,
                _ => None,
            };
            let mut lines = String::new();
            for it in &items {
                let (indent, text) = match &it.body {
                    Body::Line { indent, text } => (indent.as_str(), text.as_str()),
                    Body::CloseWrap { indent, .. } => (indent.as_str(), "}"),
                    Body::Break => continue,
                };
                if kind == ClusterKind::LineStart {
                    lines.push_str(indent);
                    lines.push_str(text);
                    lines.push_str(nl);
                } else {
                    lines.push_str(nl);
                    lines.push_str(indent);
                    lines.push_str(text);
                }
            }
            *seq += 1;
            let op = |start: usize, end: usize, text: String| Op {
                start,
                end,
                rank: 2,
                seq: *seq,
                text,
                reindent: false,
            };
            match kind {
                ClusterKind::LineStart => ops.push(op(key, key, lines)),
                ClusterKind::LineEnd => {
                    // `}` of an added brace pair followed (after blank lines only) by `else`.
                    let mut j = key;
                    while j < t.len() && t.bytes[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    match join {
                        Some(kw) if t.keyword_at(j, kw) && t.kind(j) == Kind::Code => {
                            suppressed.push((key, j));
                            lines.push(' ');
                            ops.push(op(key, j, lines));
                        }
                        _ => ops.push(op(key, key, lines)),
                    }
                }
                ClusterKind::Mid { ge } => {
                    match join {
                        Some(kw) if t.keyword_at(ge, kw) => lines.push(' '),
                        _ => {
                            lines.push_str(nl);
                            let cont =
                                self.indent(t.indent_of_line(t.line_of(ge)), self.level_at(ge));
                            lines.push_str(&cont);
                        }
                    }
                    ops.push(op(key, ge, lines));
                }
            }
        }
    }

    fn inline_ops(&self, ops: &mut Vec<Op>, seq: &mut usize) {
        for (span, clauses) in &self.appends {
            let text = clauses_text(clauses);
            if text.is_empty() {
                continue;
            }
            *seq += 1;
            ops.push(Op {
                start: span.end as usize,
                end: span.end as usize,
                rank: 0,
                seq: *seq,
                text,
                reindent: false,
            });
        }
        for s in &self.stmts {
            if let Some(w) = &s.wrap {
                if matches!(w.kind, WrapKind::OwnLine | WrapKind::SameLine) {
                    *seq += 1;
                    ops.push(Op {
                        start: w.q,
                        end: w.q,
                        rank: 1,
                        seq: *seq,
                        text: " {".into(),
                        reindent: false,
                    });
                }
            }
        }
    }

    fn reindent_ops(&self, ops: &mut Vec<Op>, seq: &mut usize) {
        if self.ranges.is_empty() {
            return;
        }
        let t = self.t;
        for line in 0..t.line_count() {
            let Some(c) = t.first_nonblank(line) else {
                continue;
            };
            let n = self.level_at(c);
            let ls = t.line_start(line);
            if n == 0 || t.kind(ls) == Kind::Literal {
                continue;
            }
            if t.is_col0_directive(line) && (self.col0 || !t.is_pragma_omp_line(line)) {
                continue;
            }
            *seq += 1;
            ops.push(Op {
                start: ls,
                end: ls,
                rank: 3,
                seq: *seq,
                text: self.indent("", n),
                reindent: true,
            });
        }
    }
}

/// Sorts operations and merges those at one offset into single edits; an operation that would
/// overlap an earlier edit is dropped.
fn merge_ops(mut ops: Vec<Op>, suppressed: &[(usize, usize)]) -> Vec<TextEdit> {
    ops.sort_by_key(|o| (o.start, o.rank, o.seq));
    let mut edits: Vec<TextEdit> = Vec::new();
    for op in ops {
        if op.reindent
            && suppressed
                .iter()
                .any(|&(a, b)| a < op.start && op.start <= b)
        {
            continue;
        }
        if let Some(last) = edits.last_mut() {
            let (ls, le) = (last.start as usize, last.end as usize);
            if op.start == ls && (ls == le || op.start == op.end) {
                last.text.push_str(&op.text);
                last.end = last.end.max(op.end as u32);
                continue;
            }
            if op.start < le {
                continue;
            }
        }
        edits.push(TextEdit {
            start: op.start as u32,
            end: op.end as u32,
            text: op.text,
        });
    }
    edits.retain(|e| e.start != e.end || !e.text.is_empty());
    edits
}

/// Trims and puts on one line.
fn clean(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    s.trim().to_string()
}

/// Merges `more` into `into`: clauses with the same name and modifier share one item list
/// (first-seen order, no duplicates); clauses without items are dropped.
fn merge_clauses(into: &mut Vec<Clause>, more: &[Clause]) {
    for c in more {
        let name = clean(&c.name);
        let modifier = c.modifier.as_deref().map(clean).filter(|m| !m.is_empty());
        if name.is_empty() {
            continue;
        }
        let idx = match into
            .iter()
            .position(|e| e.name == name && e.modifier == modifier)
        {
            Some(i) => i,
            None => {
                into.push(Clause {
                    name,
                    modifier,
                    items: Vec::new(),
                });
                into.len() - 1
            }
        };
        for item in &c.items {
            let item = clean(item);
            if !item.is_empty() && !into[idx].items.contains(&item) {
                into[idx].items.push(item);
            }
        }
    }
    into.retain(|c| !c.items.is_empty());
}

/// ` map(to: a[0:n], b) firstprivate(x)`.
fn clauses_text(clauses: &[Clause]) -> String {
    let mut s = String::new();
    for c in clauses.iter().filter(|c| !c.items.is_empty()) {
        s.push(' ');
        s.push_str(&c.name);
        s.push('(');
        if let Some(m) = &c.modifier {
            s.push_str(m);
            s.push_str(": ");
        }
        s.push_str(&c.items.join(", "));
        s.push(')');
    }
    s
}
