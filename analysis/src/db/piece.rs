//! Pieces of a module that are analysed apart: the functions of one connected component of
//! the call graph, with the file-scope directives, as a module of their own whose ids and
//! spans do not depend on anything else in the file.
//!
//! The check of a function depends on its callers (their states are its context) and its
//! callees (their effects and enter/exit data), never on functions it is not connected to.
//! A piece's module is renumbered (variables, functions, directives in order of first use)
//! and its spans point into a synthetic source made of the piece's texts one after another,
//! so typing in one function leaves every other piece equal and salsa reuses its results.

use crate::ir::{
    BindingTarget, Callee, DirId, ExprKind, FuncId, Idx, IndexVec, Module, Span, StmtKind, VarId,
};
use std::collections::BTreeMap;

/// A piece of text of the real file and where it sits in the synthetic source.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub real: u32,
    pub synthetic: u32,
    pub len: u32,
}

/// What a piece's analysis reads: its module and synthetic source, free of real positions.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceBody {
    pub module: Module,
    pub source: String,
}

/// A piece: its body, and how to map its offsets and ids back to the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub body: std::sync::Arc<PieceBody>,
    pub segments: Vec<Segment>,
    /// The file's ids of the piece's functions, variables and directives (by the piece's
    /// index). Kept beside the body, not in it: they change with edits elsewhere.
    pub ids: PieceIds,
}

/// The original id of each renumbered one: indexed by the piece's id, holding the file's.
///
/// Piece-local and file ids share the types `FuncId`/`VarId`/`DirId` (a piece is a whole
/// `Module`, so a distinct piece-local type would need a second `Module`); this machinery is
/// to be deleted with the per-function queries (issue 14, deliverable 2), so it is not given
/// its own id types.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PieceIds {
    pub funcs: IndexVec<FuncId, FuncId>,
    pub vars: IndexVec<VarId, VarId>,
    pub dirs: IndexVec<DirId, DirId>,
}

impl PieceIds {
    pub fn func(&self, f: FuncId) -> Option<FuncId> {
        self.funcs.get(f).copied()
    }
    pub fn var(&self, v: VarId) -> Option<VarId> {
        self.vars.get(v).copied()
    }
    pub fn dir(&self, d: DirId) -> Option<DirId> {
        self.dirs.get(d).copied()
    }
}

impl Piece {
    /// The real offset of a synthetic one (None between segments).
    pub fn to_real(segments: &[Segment], at: u32) -> Option<u32> {
        segments
            .iter()
            .find(|s| s.synthetic <= at && at <= s.synthetic + s.len)
            .map(|s| s.real + (at - s.synthetic))
    }
}

/// The functions with bodies grouped by the connected components of the call graph (calls in
/// either direction), each in declaration order; components ordered by their first function.
pub fn components(module: &Module) -> Vec<Vec<FuncId>> {
    let n = module.functions.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for (i, f) in module.functions.iter().enumerate() {
        for e in &f.exprs {
            let callee = match &e.kind {
                ExprKind::Call {
                    callee: Callee::Direct(c),
                    ..
                } => *c,
                ExprKind::Func(c) => *c,
                _ => continue,
            };
            if module.functions.get(callee).is_some_and(|f| f.has_body) {
                let (a, b) = (root(&mut parent, i), root(&mut parent, callee.index()));
                parent[a] = b;
            }
        }
    }
    let mut groups: BTreeMap<usize, Vec<FuncId>> = BTreeMap::new();
    let mut first: BTreeMap<usize, usize> = BTreeMap::new();
    for (id, f) in module.functions.iter_enumerated() {
        if f.has_body && f.span.is_some() {
            let i = id.index();
            let r = root(&mut parent, i);
            first.entry(r).or_insert(i);
            groups.entry(r).or_default().push(id);
        }
    }
    let mut out: Vec<(usize, Vec<FuncId>)> =
        groups.into_iter().map(|(r, g)| (first[&r], g)).collect();
    out.sort_by_key(|(f, _)| *f);
    out.into_iter().map(|(_, g)| g).collect()
}

/// What every piece of the file carries besides its functions: the file-scope directives
/// (`declare target`, ...) and the `#define` lines. Computed once per file, not per piece.
pub fn file_scope(module: &Module, source: &str) -> Vec<Span> {
    module
        .directives
        .iter()
        .filter(|d| d.function.is_none())
        .map(|d| d.directive.span)
        .chain(define_lines(source))
        .collect()
}

/// The comments of the file (byte ranges), in order: a piece carries a placeholder for each
/// comment inside its functions, so typing in a comment changes no piece.
pub fn comments(source: &str) -> Vec<Span> {
    crate::text::scan::regions(source)
        .into_iter()
        .filter(|r| r.kind == crate::text::scan::RegionKind::Comment)
        .map(|r| Span {
            start: r.start as u32,
            end: r.end as u32,
        })
        .collect()
}

/// A comment's stand-in in a piece: `/**/` with the comment's line breaks, so lines stay
/// where they were.
fn placeholder(comment: &str) -> String {
    let breaks = comment.bytes().filter(|b| *b == b'\n').count();
    format!("/*{}*/", "\n".repeat(breaks))
}

/// The piece of `module` (lowered from `source`) holding `funcs`; `shared` is the file's
/// [`file_scope`], `comments` its [`comments`].
pub fn extract(
    module: &Module,
    source: &str,
    funcs: &[FuncId],
    shared: &[Span],
    comments: &[Span],
) -> Piece {
    // Segments: each function's text and each file-scope directive's, in file order.
    let mut spans: Vec<Span> = funcs
        .iter()
        .filter_map(|f| module.function(*f).span)
        .chain(shared.iter().copied())
        .filter(|s| (s.end as usize) <= source.len() && s.start <= s.end)
        .collect();
    spans.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end)));
    // A `#define` inside one of the functions is already in its text.
    spans.dedup_by(|inner, outer| inner.end <= outer.end);
    let mut text = String::new();
    let mut segments = Vec::new();
    for s in spans {
        if source.get(s.start as usize..s.end as usize).is_none() {
            continue;
        }
        // The span's text in parts between the comments wholly inside it; each comment
        // becomes its placeholder, which no segment maps.
        let first = comments.partition_point(|c| c.start < s.start);
        let mut at = s.start;
        for c in comments[first..]
            .iter()
            .take_while(|c| c.start < s.end)
            .filter(|c| c.end <= s.end)
        {
            segments.push(Segment {
                real: at,
                synthetic: text.len() as u32,
                len: c.start - at,
            });
            text.push_str(&source[at as usize..c.start as usize]);
            text.push_str(&placeholder(&source[c.start as usize..c.end as usize]));
            at = c.end;
        }
        segments.push(Segment {
            real: at,
            synthetic: text.len() as u32,
            len: s.end - at,
        });
        text.push_str(&source[at as usize..s.end as usize]);
        text.push('\n');
    }
    let mut r = Renumber::new(module, funcs);
    let mut out = Module {
        path: module.path.clone(),
        language: module.language,
        source_len: text.len() as u32,
        lines: crate::text::LineIndex::new(&text),
        macros: module.macros.clone(),
        member_lengths: module.member_lengths.clone(),
        ..Module::default()
    };
    // Segments are in file order and disjoint: the one holding an offset is the last one
    // starting at or before it (for an end, which is exclusive, strictly before it). A span
    // may cross a comment: its ends are mapped apart.
    let map = |s: Span| -> Option<Span> {
        let i = segments.partition_point(|g| g.real <= s.start);
        let a = segments[..i].last().filter(|g| s.start <= g.real + g.len)?;
        let start = s.start - a.real + a.synthetic;
        if s.end == s.start {
            return Some(Span { start, end: start });
        }
        let j = segments.partition_point(|g| g.real < s.end);
        let b = segments[..j].last().filter(|g| s.end <= g.real + g.len)?;
        let end = s.end - b.real + b.synthetic;
        (start <= end).then_some(Span { start, end })
    };
    let must = |s: Span| map(s).unwrap_or_default();
    out.macro_text = module
        .macro_text
        .iter()
        .filter_map(|m| {
            map(m.span).map(|span| crate::ir::MacroText {
                span,
                whole: m.whole,
            })
        })
        .collect();
    // Functions: the piece's, then the bodiless ones they name (prototypes), in first use.
    let mut i = 0;
    while i < r.funcs.len() {
        let old = r.funcs[i];
        // A callee outside the piece is seen by its declaration only.
        let member = r.is_member(old);
        let mut g = head(module.function(old), &mut r, &map, member);
        for s in &mut g.stmts {
            s.span = must(s.span);
            match &mut s.kind {
                StmtKind::Decl(ds) => {
                    for (v, _) in ds.iter_mut() {
                        *v = r.var(*v);
                    }
                }
                StmtKind::For(fl) => fl.induction = fl.induction.map(|v| r.var(v)),
                StmtKind::RangeFor { var, .. } => *var = r.var(*var),
                StmtKind::Omp { directive, .. } => *directive = r.dir(*directive),
                _ => {}
            }
        }
        for e in &mut g.exprs {
            e.span = must(e.span);
            match &mut e.kind {
                ExprKind::Var(v) => *v = r.var(*v),
                ExprKind::Func(c) => *c = r.func(*c),
                ExprKind::Call {
                    callee: Callee::Direct(c),
                    ..
                } => *c = r.func(*c),
                _ => {}
            }
        }
        out.functions.push(g);
        i += 1;
    }
    // Directives: those of the piece's functions in first use, then the file-scope ones.
    for (d, info) in module.directives.iter_enumerated() {
        if info.function.is_none() {
            r.dir(d);
        }
    }
    for old in r.dirs.clone() {
        let info = module.directive(old);
        let mut d = info.clone();
        d.function = info.function.map(|f| r.func(f));
        d.directive.map_spans(&must);
        for b in &mut d.bindings {
            b.span = must(b.span);
            if let BindingTarget::Var(v) = &mut b.target {
                *v = r.var(*v);
            }
        }
        out.directives.push(d);
    }
    // Variables, in first use (renumbering directives may have named more).
    let mut j = 0;
    while j < r.vars.len() {
        let old = r.vars[j];
        let mut v = module.var(old).clone();
        v.span = v.span.and_then(map);
        v.function = v.function.map(|f| r.func(f));
        out.vars.push(v);
        j += 1;
    }
    // Functions named late (by a variable's owner) join as declarations.
    while out.functions.len() < r.funcs.len() {
        let f = module.function(r.funcs[out.functions.len()]);
        out.functions.push(head(f, &mut r, &map, false));
    }
    while out.vars.len() < r.vars.len() {
        let mut v = module.var(r.vars[out.vars.len()]).clone();
        v.span = v.span.and_then(map);
        v.function = v.function.and_then(|f| r.known_func(f));
        out.vars.push(v);
    }
    in_file_order(&mut out, &mut r.vars);
    for d in &module.diagnostics {
        if let Some(span) = d.span.and_then(map) {
            let mut d = d.clone();
            d.span = Some(span);
            out.diagnostics.push(d);
        }
    }
    Piece {
        body: std::sync::Arc::new(PieceBody {
            module: out,
            source: text,
        }),
        segments,
        ids: PieceIds {
            funcs: r.funcs.into(),
            vars: r.vars.into(),
            dirs: r.dirs.into(),
        },
    }
}

/// Renumbers the piece's variables (`vars`: new id → the file's) in the file's order rather
/// than first use: what the analyses list by variable (a kernel's implicit maps, its copies)
/// then comes in the whole file's order. The relative order of a piece's variables does not
/// change with edits elsewhere, so neither does the piece.
fn in_file_order(out: &mut Module, vars: &mut Vec<VarId>) {
    let mut order: Vec<usize> = (0..vars.len()).collect();
    order.sort_by_key(|&i| vars[i]);
    // Piece variable id -> its id in file order.
    let mut rank: IndexVec<VarId, VarId> = vec![VarId(0); order.len()].into();
    for (k, &i) in order.iter().enumerate() {
        rank[VarId::from_usize(i)] = VarId::from_usize(k);
    }
    // Every place `extract` renumbers a variable.
    let re = |v: &mut VarId| {
        if let Some(&k) = rank.get(*v) {
            *v = k;
        }
    };
    for g in &mut out.functions {
        g.params.iter_mut().for_each(re);
        for s in &mut g.stmts {
            match &mut s.kind {
                StmtKind::Decl(ds) => ds.iter_mut().for_each(|(v, _)| re(v)),
                StmtKind::For(fl) => fl.induction.iter_mut().for_each(re),
                StmtKind::RangeFor { var, .. } => re(var),
                _ => {}
            }
        }
        for e in &mut g.exprs {
            if let ExprKind::Var(v) = &mut e.kind {
                re(v);
            }
        }
    }
    for d in &mut out.directives {
        for b in &mut d.bindings {
            if let BindingTarget::Var(v) = &mut b.target {
                re(v);
            }
        }
    }
    let mut old: Vec<Option<crate::ir::Var>> = std::mem::take(&mut out.vars)
        .into_iter()
        .map(Some)
        .collect();
    out.vars = order
        .iter()
        .filter_map(|&i| old.get_mut(i)?.take())
        .collect();
    *vars = order.iter().map(|&i| vars[i]).collect();
}

/// `f` with renumbered parameters and spans in the piece (or none); with its body (still to
/// be renumbered) or, for a function outside the piece, as a declaration only.
fn head(
    f: &crate::ir::Function,
    r: &mut Renumber,
    map: &dyn Fn(Span) -> Option<Span>,
    with_body: bool,
) -> crate::ir::Function {
    let mut g = f.clone();
    g.params = f.params.iter().map(|v| r.var(*v)).collect();
    g.span = f.span.and_then(map);
    g.name_span = f.name_span.and_then(map);
    if !with_body {
        g.has_body = false;
        g.body = None;
        g.stmts = Default::default();
        g.exprs = Default::default();
    }
    g
}

/// The `#define` lines of the file: sizes in pragmas name macros (`a[0:N]`).
fn define_lines(source: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut at = 0u32;
    for line in source.split_inclusive('\n') {
        let t = line.trim_start();
        if t.strip_prefix('#')
            .is_some_and(|r| r.trim_start().starts_with("define"))
        {
            let body = line.trim_end_matches(['\n', '\r']);
            out.push(Span {
                start: at,
                end: at + body.len() as u32,
            });
        }
        at += line.len() as u32;
    }
    out
}

/// New ids in order of first use.
struct Renumber {
    members: Vec<FuncId>,
    funcs: Vec<FuncId>,
    func_ids: BTreeMap<FuncId, FuncId>,
    vars: Vec<VarId>,
    var_ids: BTreeMap<VarId, VarId>,
    dirs: Vec<DirId>,
    dir_ids: BTreeMap<DirId, DirId>,
}

impl Renumber {
    fn new(module: &Module, members: &[FuncId]) -> Renumber {
        let mut r = Renumber {
            members: members.to_vec(),
            funcs: Vec::new(),
            func_ids: BTreeMap::new(),
            vars: Vec::new(),
            var_ids: BTreeMap::new(),
            dirs: Vec::new(),
            dir_ids: BTreeMap::new(),
        };
        for f in members {
            r.func(*f);
        }
        // Directives in the order of the piece's functions.
        for (d, info) in module.directives.iter_enumerated() {
            if info.function.is_some_and(|f| members.contains(&f)) {
                r.dir(d);
            }
        }
        r
    }

    fn is_member(&self, f: FuncId) -> bool {
        self.members.contains(&f)
    }

    fn func(&mut self, f: FuncId) -> FuncId {
        let n = self.funcs.len() as u32;
        *self.func_ids.entry(f).or_insert_with(|| {
            self.funcs.push(f);
            FuncId(n)
        })
    }

    fn known_func(&self, f: FuncId) -> Option<FuncId> {
        self.func_ids.get(&f).copied()
    }

    fn var(&mut self, v: VarId) -> VarId {
        let n = self.vars.len() as u32;
        *self.var_ids.entry(v).or_insert_with(|| {
            self.vars.push(v);
            VarId(n)
        })
    }

    fn dir(&mut self, d: DirId) -> DirId {
        let n = self.dirs.len() as u32;
        *self.dir_ids.entry(d).or_insert_with(|| {
            self.dirs.push(d);
            DirId(n)
        })
    }
}
