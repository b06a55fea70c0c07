//! IPDA's symbolic values (§4): an expression of the loop body becomes a polynomial over
//! *atoms* with local definitions substituted. A value defined differently on different paths
//! is a set of candidates, each guarded by the branch conditions that select it (the paper's
//! sum of predicated terms), so that a difference can cancel the predicates that both sides
//! share.
//!
//! Atoms are the induction variables of the loops (`Iv`), values that change from one
//! iteration to another in ways the analysis does not follow (`Varying`), quotients and
//! remainders by a constant (evaluated again once their operand is known), and everything else:
//! invariant program symbols (`n`, `B[k]` when neither changes in the loop).

use super::nest::{self, LoopInfo};
use crate::ir::access::{accesses, AccessKind, PathElem, Root};
use crate::ir::{BinaryOp, ExprId, ExprKind, Function, Module, Span, StmtId, StmtKind};
use crate::ir::{TypeKind, UnaryOp, VarId};
use crate::semantics::symbolic::Poly;
use std::collections::{BTreeMap, BTreeSet};

/// A branch condition in a normal form: `diff OP 0`, or text the analysis does not read.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    Cmp { op: BinaryOp, diff: Poly },
    Opaque { text: String, varying: bool },
}

/// A condition that must hold (`positive`) or fail for a candidate to be the value.
#[derive(Clone, Debug, PartialEq)]
pub struct Guard {
    pub cond: Cond,
    pub positive: bool,
}

/// The candidates of a value; exactly one applies on any execution.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub cands: Vec<(Vec<Guard>, Poly)>,
}

/// Most candidates a value keeps before it is given up as varying.
const MAX_CANDS: usize = 8;

impl Value {
    pub fn of(p: Poly) -> Value {
        Value {
            cands: vec![(Vec::new(), p)],
        }
    }
    /// The polynomial when the value is not conditional.
    pub fn single(&self) -> Option<&Poly> {
        match self.cands.as_slice() {
            [(g, p)] if g.is_empty() => Some(p),
            _ => None,
        }
    }
    fn combine(&self, o: &Value, f: impl Fn(&Poly, &Poly) -> Option<Poly>) -> Option<Value> {
        let mut cands = Vec::new();
        for (g1, p1) in &self.cands {
            for (g2, p2) in &o.cands {
                let mut g = g1.clone();
                g.extend(g2.iter().cloned());
                cands.push((g, f(p1, p2)?));
            }
        }
        (cands.len() <= MAX_CANDS).then_some(Value { cands })
    }
    fn map(&self, mut f: impl FnMut(&Poly) -> Option<Poly>) -> Option<Value> {
        let cands = self
            .cands
            .iter()
            .map(|(g, p)| Some((g.clone(), f(p)?)))
            .collect::<Option<Vec<_>>>()?;
        Some(Value { cands })
    }
}

/// What an atom stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum AtomKind {
    /// The induction variable of a loop.
    Iv(StmtId),
    /// Changes between iterations in a way not followed (assigned in the loop, loaded from
    /// data the loop writes, indexed by an induction variable).
    Varying,
    /// `num / den` and `num % den` (C semantics) for a constant `den`.
    Div(Poly, i64),
    Rem(Poly, i64),
}

/// A memory access of the loop nest with the byte offset of its address from the base.
#[derive(Clone, Debug)]
pub struct Site {
    pub expr: ExprId,
    pub span: Span,
    pub root: VarId,
    pub kind: AccessKind,
    /// Bytes of the element accessed.
    pub width: Option<u64>,
    /// Offset in bytes from the root's data; None when not symbolic.
    pub offset: Option<Value>,
    /// Loops around the access, outermost first, starting at the nest's root.
    pub loops: Vec<StmtId>,
}

/// The nest seen symbolically: its accesses, loops and what stops a reordering.
#[derive(Debug, Default)]
pub struct Nest {
    pub sites: Vec<Site>,
    pub loops: BTreeMap<StmtId, LoopInfo>,
    pub atoms: BTreeMap<String, AtomKind>,
    /// Variables declared outside the nest that it writes (shared scalars), with where.
    pub shared_writes: Vec<(VarId, Span)>,
    /// Why the nest's effects are not all known (calls taking pointers, `break`, ...).
    pub opaque: Vec<(Span, String)>,
    /// Atoms known to be at least 1 (bounds `n` of loops `iv < n` starting at 0 or more).
    pub positive: BTreeSet<String>,
}

impl Nest {
    pub fn kind(&self, atom: &str) -> Option<&AtomKind> {
        self.atoms.get(atom)
    }
    /// True when no atom of `p` changes between iterations: no IV, nothing varying.
    pub fn invariant(&self, p: &Poly) -> bool {
        p.atoms().into_iter().all(|a| match self.kind(a) {
            None => true,
            Some(AtomKind::Iv(_)) | Some(AtomKind::Varying) => false,
            Some(AtomKind::Div(n, _)) | Some(AtomKind::Rem(n, _)) => self.invariant(n),
        })
    }
}

/// Interprets the loop nest rooted at `root` (a `for` statement) of `func`.
pub fn interpret(module: &Module, source: &str, func: &Function, root: StmtId) -> Nest {
    let mut it = Interp {
        module,
        source,
        func,
        env: BTreeMap::new(),
        names: BTreeMap::new(),
        assigned: assigned_vars(func, root),
        declared: declared_vars(func, root),
        ivs: loop_ivs(func, root),
        written_data: written_data(module, func, root),
        loops: Vec::new(),
        nest: Nest::default(),
        fresh: 0,
    };
    it.stmt(root, 0);
    it.nest
}

/// Variables written anywhere under `s` (assignments, increments, declarations, address
/// taken).
pub fn assigned_vars(func: &Function, s: StmtId) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    for_each_stmt(func, s, &mut |st| {
        if let StmtKind::Decl(ds) = &func.stmt(st).kind {
            out.extend(ds.iter().map(|(v, _)| *v));
        }
        for e in stmt_exprs(&func.stmt(st).kind) {
            for_each_expr(func, e, &mut |x| match &func.expr(x).kind {
                ExprKind::Assign(_, l, _)
                | ExprKind::Unary(
                    UnaryOp::PreInc
                    | UnaryOp::PreDec
                    | UnaryOp::PostInc
                    | UnaryOp::PostDec
                    | UnaryOp::AddrOf,
                    l,
                ) => {
                    if let ExprKind::Var(v) = func.expr(nest::strip(func, *l)).kind {
                        out.insert(v);
                    }
                }
                _ => {}
            });
        }
    });
    out
}

fn loop_ivs(func: &Function, s: StmtId) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    for_each_stmt(func, s, &mut |st| {
        if let StmtKind::For(f) = &func.stmt(st).kind {
            out.extend(f.induction);
        }
    });
    out
}

fn written_data(module: &Module, func: &Function, s: StmtId) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    for_each_stmt(func, s, &mut |st| {
        let exprs = stmt_exprs(&func.stmt(st).kind);
        for a in accesses(module, func, &exprs) {
            if let Root::Var(v) = a.root {
                if a.is_indirect() && a.kind.writes() {
                    out.insert(v);
                }
            }
        }
    });
    out
}

fn declared_vars(func: &Function, s: StmtId) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    for_each_stmt(func, s, &mut |st| {
        if let StmtKind::Decl(ds) = &func.stmt(st).kind {
            out.extend(ds.iter().map(|(v, _)| *v));
        }
    });
    out
}

/// The expressions a statement holds itself (not those of its children).
pub fn stmt_exprs(k: &StmtKind) -> Vec<ExprId> {
    match k {
        StmtKind::Expr(e) => vec![*e],
        StmtKind::Decl(ds) => ds.iter().filter_map(|(_, i)| *i).collect(),
        StmtKind::If { cond, .. }
        | StmtKind::While { cond, .. }
        | StmtKind::Do { cond, .. }
        | StmtKind::Switch { cond, .. } => vec![*cond],
        StmtKind::For(f) => f.cond.iter().chain(f.step.iter()).copied().collect(),
        StmtKind::RangeFor { range, .. } => vec![*range],
        StmtKind::Case { value, .. } => vec![*value],
        StmtKind::Return(e) => e.iter().copied().collect(),
        StmtKind::Opaque { exprs, .. } => exprs.clone(),
        _ => Vec::new(),
    }
}

pub fn for_each_stmt(func: &Function, s: StmtId, f: &mut impl FnMut(StmtId)) {
    let mut stack = vec![s];
    while let Some(s) = stack.pop() {
        f(s);
        stack.extend(crate::ir::stmt_children(&func.stmt(s).kind));
    }
}

pub fn for_each_expr(func: &Function, e: ExprId, f: &mut impl FnMut(ExprId)) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        f(e);
        stack.extend(crate::semantics::symbolic::children(&func.expr(e).kind));
    }
}

struct Interp<'a> {
    module: &'a Module,
    source: &'a str,
    func: &'a Function,
    /// Current symbolic value of variables defined in the nest.
    env: BTreeMap<VarId, Value>,
    /// Atom name of each variable (unique even when two variables share a name).
    names: BTreeMap<VarId, String>,
    /// Variables the nest writes.
    assigned: BTreeSet<VarId>,
    /// Variables the nest declares (private to an iteration).
    declared: BTreeSet<VarId>,
    /// Induction variables of the loops of the nest.
    ivs: BTreeSet<VarId>,
    /// Variables whose data (elements, pointees) the nest writes.
    written_data: BTreeSet<VarId>,
    loops: Vec<StmtId>,
    nest: Nest,
    fresh: u32,
}

/// Deeper statements or expressions are not worth following (and must not blow the stack).
const MAX_DEPTH: usize = 200;

impl Interp<'_> {
    fn text(&self, span: Span) -> String {
        self.module
            .text(self.source, span)
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    }

    /// The atom name of a variable.
    fn name(&mut self, v: VarId) -> String {
        if let Some(n) = self.names.get(&v) {
            return n.clone();
        }
        let base = self.module.var(v).name.clone();
        let mut name = base.clone();
        let mut k = 1;
        while self.names.values().any(|n| *n == name) {
            k += 1;
            name = format!("{base}_{k}");
        }
        self.names.insert(v, name.clone());
        name
    }

    fn varying(&mut self, what: &str) -> Poly {
        self.fresh += 1;
        let a = format!("{what}@{}", self.fresh);
        self.nest.atoms.insert(a.clone(), AtomKind::Varying);
        Poly::atom(&a)
    }

    /// Forget what is known of every variable the statement `s` writes.
    fn havoc(&mut self, s: StmtId) {
        for v in assigned_vars(self.func, s) {
            if self.env.contains_key(&v) || !self.declared.contains(&v) {
                let name = self.name(v);
                let p = self.varying(&name);
                self.env.insert(v, Value::of(p));
            }
        }
    }

    fn var_value(&mut self, v: VarId) -> Option<Value> {
        if let Some(x) = self.env.get(&v) {
            return Some(x.clone());
        }
        let var = self.module.var(v);
        if !integral(&var.ty.referent().kind) {
            return None;
        }
        let name = self.name(v);
        if self.assigned.contains(&v) {
            return Some(Value::of(self.varying(&name)));
        }
        Some(Value::of(Poly::atom(&name)))
    }

    /// An atom standing for the expression `e` as written.
    fn opaque_atom(&mut self, e: ExprId) -> Value {
        let text = self.text(self.func.expr(e).span);
        let mut varies = false;
        for_each_expr(self.func, e, &mut |x| {
            if let ExprKind::Var(v) = self.func.expr(x).kind {
                varies |= self.assigned.contains(&v) || self.env.contains_key(&v);
            }
            if matches!(self.func.expr(x).kind, ExprKind::Call { .. }) {
                varies = true;
            }
        });
        // A load from data the nest writes may change between iterations too.
        let loads_written = accesses(self.module, self.func, &[e])
            .iter()
            .any(|a| matches!(a.root, Root::Var(v) if a.is_indirect() && self.writes_data(v)));
        if varies || loads_written || text.is_empty() {
            Value::of(self.varying(&text))
        } else {
            Value::of(Poly::atom(&text))
        }
    }

    fn writes_data(&self, v: VarId) -> bool {
        self.written_data.contains(&v)
    }

    fn eval(&mut self, e: ExprId, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        let expr = self.func.expr(e);
        match &expr.kind {
            ExprKind::Int { value, .. } => value.map(|v| Value::of(Poly::constant(v))),
            ExprKind::SizeOf(v) => v.map(|v| Value::of(Poly::constant(v))),
            ExprKind::Bool(b) => Some(Value::of(Poly::constant(i64::from(*b)))),
            ExprKind::Var(v) => self.var_value(*v),
            ExprKind::Cast(x) => {
                if !index_class(expr.class) {
                    return None;
                }
                self.eval(*x, d)
            }
            ExprKind::Unary(UnaryOp::Minus, x) => self.eval(*x, d)?.map(|p| Some(p.neg())),
            ExprKind::Unary(UnaryOp::Plus, x) => self.eval(*x, d),
            ExprKind::Binary(op, l, r) => {
                let (op, l, r) = (*op, *l, *r);
                match op {
                    BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => {
                        let a = self.eval(l, d)?;
                        let b = self.eval(r, d)?;
                        a.combine(&b, |x, y| {
                            Some(match op {
                                BinaryOp::Add => x.add(y),
                                BinaryOp::Sub => x.sub(y),
                                _ => x.mul(y),
                            })
                        })
                    }
                    BinaryOp::Div | BinaryOp::Rem | BinaryOp::Shl => {
                        let a = self.eval(l, d)?;
                        let b = self.eval(r, d)?;
                        let c = b.single()?.as_const()?;
                        a.map(|x| self.div_like(op, x, c))
                    }
                    _ => Some(self.opaque_atom(e)),
                }
            }
            ExprKind::Cond(c, t, f) => {
                let g = self.cond(*c, d);
                let t = self.eval(*t, d)?;
                let f = self.eval(*f, d)?;
                let mut cands = Vec::new();
                for (gs, p) in t.cands {
                    let mut gs = gs;
                    gs.push(Guard {
                        cond: g.clone(),
                        positive: true,
                    });
                    cands.push((gs, p));
                }
                for (gs, p) in f.cands {
                    let mut gs = gs;
                    gs.push(Guard {
                        cond: g.clone(),
                        positive: false,
                    });
                    cands.push((gs, p));
                }
                (cands.len() <= MAX_CANDS).then_some(Value { cands })
            }
            ExprKind::Subscript(..)
            | ExprKind::Member { .. }
            | ExprKind::Call { .. }
            | ExprKind::Unary(UnaryOp::Deref, _) => {
                if !index_class(expr.class) {
                    return None;
                }
                Some(self.opaque_atom(e))
            }
            _ => None,
        }
    }

    fn div_like(&mut self, op: BinaryOp, x: &Poly, c: i64) -> Option<Poly> {
        if let Some(v) = x.as_const() {
            return Some(Poly::constant(match op {
                BinaryOp::Div => v.checked_div(c)?,
                BinaryOp::Rem => v.checked_rem(c)?,
                _ => v.checked_shl(u32::try_from(c).ok()?)?,
            }));
        }
        match op {
            BinaryOp::Shl if (0..62).contains(&c) => Some(x.scale(1i64 << c)),
            BinaryOp::Shl => None,
            BinaryOp::Div if c != 0 && x.terms().all(|(_, k)| k % c == 0) => x.div(c),
            BinaryOp::Div | BinaryOp::Rem if c != 0 => {
                let sym = if op == BinaryOp::Div { "/" } else { "%" };
                let a = format!("({x}) {sym} {c}");
                let kind = if op == BinaryOp::Div {
                    AtomKind::Div(x.clone(), c)
                } else {
                    AtomKind::Rem(x.clone(), c)
                };
                self.nest.atoms.insert(a.clone(), kind);
                Some(Poly::atom(&a))
            }
            _ => None,
        }
    }

    fn cond(&mut self, e: ExprId, depth: usize) -> Cond {
        let x = nest::strip(self.func, e);
        match self.func.expr(x).kind {
            ExprKind::Binary(
                op @ (BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge
                | BinaryOp::Eq
                | BinaryOp::Ne),
                l,
                r,
            ) => {
                let a = self.eval(l, depth + 1);
                let b = self.eval(r, depth + 1);
                if let (Some(a), Some(b)) = (a, b) {
                    if let (Some(a), Some(b)) = (a.single(), b.single()) {
                        return Cond::Cmp { op, diff: a.sub(b) };
                    }
                }
            }
            ExprKind::Unary(UnaryOp::Not, _) => {}
            _ => {
                if let Some(v) = self.eval(x, depth + 1) {
                    if let Some(p) = v.single() {
                        return Cond::Cmp {
                            op: BinaryOp::Ne,
                            diff: p.clone(),
                        };
                    }
                }
            }
        }
        let text = self.text(self.func.expr(x).span);
        let mut varying = text.is_empty();
        for_each_expr(self.func, x, &mut |y| match self.func.expr(y).kind {
            ExprKind::Var(v) => varying |= self.assigned.contains(&v) || self.env.contains_key(&v),
            ExprKind::Call { .. }
            | ExprKind::Subscript(..)
            | ExprKind::Unary(UnaryOp::Deref, _) => varying = true,
            _ => {}
        });
        Cond::Opaque { text, varying }
    }

    /// The byte offset of an access's address from its root's data.
    fn offset(&mut self, root: VarId, path: &[PathElem]) -> (Option<Value>, Option<u64>) {
        let module = self.module;
        let mut ty = module.var(root).ty.referent();
        let mut off = Value::of(Poly::zero());
        for (i, el) in path.iter().enumerate() {
            let (elem, idx) = match (&ty.kind, el) {
                (TypeKind::Array { element, .. }, PathElem::Index(x)) => {
                    (element.as_ref(), Some(*x))
                }
                // Only the root pointer's own value is a fixed base; a pointer loaded from
                // memory is another base per iteration.
                (TypeKind::Pointer(p), PathElem::Index(x)) if i == 0 => (p.as_ref(), Some(*x)),
                (TypeKind::Pointer(p), PathElem::Deref) if i == 0 => (p.as_ref(), None),
                _ => return (None, None),
            };
            let Some(size) = elem.size.filter(|s| *s > 0) else {
                return (None, None);
            };
            if let Some(x) = idx {
                let Some(v) = self.eval(x, 0) else {
                    return (None, Some(size));
                };
                let scaled = v.map(|p| Some(p.scale(size as i64)));
                off = match scaled.and_then(|s| off.combine(&s, |a, b| Some(a.add(b)))) {
                    Some(o) => o,
                    None => return (None, Some(size)),
                };
            }
            ty = elem.referent();
        }
        (Some(off), ty.size)
    }

    /// Records the memory accesses of `e` as sites, and its effect on variables.
    fn expr(&mut self, e: ExprId) {
        crate::budget::tick("strides");
        for a in accesses(self.module, self.func, &[e]) {
            let Root::Var(v) = a.root else {
                self.nest.opaque.push((
                    self.func.expr(a.expr).span,
                    "an access through `this`".into(),
                ));
                continue;
            };
            if a.kind == AccessKind::Unknown {
                let t = self.text(self.func.expr(a.expr).span);
                self.nest.opaque.push((
                    self.func.expr(a.expr).span,
                    format!("`{t}` is passed by address"),
                ));
            }
            if !a.is_indirect() {
                if a.kind.writes() && !self.declared.contains(&v) && !self.is_loop_iv(v) {
                    self.nest
                        .shared_writes
                        .push((v, self.func.expr(a.expr).span));
                }
                continue;
            }
            // Arrays declared in the nest are private to an iteration.
            if self.declared.contains(&v) {
                continue;
            }
            let (offset, width) = self.offset(v, &a.path);
            self.nest.sites.push(Site {
                expr: a.expr,
                span: self.func.expr(a.expr).span,
                root: v,
                kind: a.kind,
                width,
                offset,
                loops: self.loops.clone(),
            });
        }
        self.effects(e, 0);
    }

    fn is_loop_iv(&self, v: VarId) -> bool {
        self.ivs.contains(&v)
    }

    /// Updates the environment for the assignments inside `e` (in evaluation order).
    fn effects(&mut self, e: ExprId, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let kind = self.func.expr(e).kind.clone();
        match kind {
            ExprKind::Assign(op, l, r) => {
                self.effects(r, depth + 1);
                if let ExprKind::Var(v) = self.func.expr(nest::strip(self.func, l)).kind {
                    let value = match op {
                        None => self.eval(r, 0),
                        Some(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul)) => {
                            match (self.var_value(v), self.eval(r, 0)) {
                                (Some(a), Some(b)) => a.combine(&b, |x, y| {
                                    Some(match op {
                                        BinaryOp::Add => x.add(y),
                                        BinaryOp::Sub => x.sub(y),
                                        _ => x.mul(y),
                                    })
                                }),
                                _ => None,
                            }
                        }
                        Some(_) => None,
                    };
                    self.set(v, value);
                } else {
                    self.effects(l, depth + 1);
                }
            }
            ExprKind::Unary(op, x) if op.is_increment() => {
                if let ExprKind::Var(v) = self.func.expr(nest::strip(self.func, x)).kind {
                    let k = if matches!(op, UnaryOp::PreInc | UnaryOp::PostInc) {
                        1
                    } else {
                        -1
                    };
                    let value = self
                        .var_value(v)
                        .and_then(|a| a.map(|p| Some(p.add(&Poly::constant(k)))));
                    self.set(v, value);
                }
            }
            _ => {
                for c in crate::semantics::symbolic::children(&kind) {
                    self.effects(c, depth + 1);
                }
            }
        }
    }

    fn set(&mut self, v: VarId, value: Option<Value>) {
        let value = match value {
            Some(x) => x,
            None => {
                let name = self.name(v);
                Value::of(self.varying(&name))
            }
        };
        self.env.insert(v, value);
    }

    fn stmt(&mut self, s: StmtId, depth: usize) {
        if depth > MAX_DEPTH {
            self.nest
                .opaque
                .push((self.func.stmt(s).span, "nesting too deep".into()));
            return;
        }
        let d = depth + 1;
        let span = self.func.stmt(s).span;
        match self.func.stmt(s).kind.clone() {
            StmtKind::Compound(v) => {
                for c in v {
                    self.stmt(c, d);
                }
            }
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Decl(ds) => {
                for (v, init) in ds {
                    let value = match init {
                        Some(i) => {
                            self.expr(i);
                            self.eval(i, 0)
                        }
                        None => None,
                    };
                    self.set(v, value);
                }
            }
            StmtKind::If {
                init,
                cond,
                then,
                els,
            } => {
                if let Some(i) = init {
                    self.stmt(i, d);
                }
                self.expr(cond);
                let g = self.cond(cond, 0);
                let before = self.env.clone();
                self.stmt(then, d);
                let after_then = std::mem::replace(&mut self.env, before);
                if let Some(e) = els {
                    self.stmt(e, d);
                }
                let after_else = std::mem::take(&mut self.env);
                self.env = self.merge(&g, after_then, after_else);
            }
            StmtKind::For(f) => self.for_loop(s, &f, d),
            StmtKind::While { cond, body } | StmtKind::Do { body, cond } => {
                self.havoc(s);
                self.expr(cond);
                self.stmt(body, d);
                self.havoc(s);
            }
            StmtKind::Switch { init, cond, body } => {
                if let Some(i) = init {
                    self.stmt(i, d);
                }
                self.expr(cond);
                self.havoc(s);
                self.stmt(body, d);
                self.havoc(s);
            }
            StmtKind::Case { body, .. }
            | StmtKind::Default { body }
            | StmtKind::Label { body, .. } => {
                if let Some(b) = body {
                    self.stmt(b, d);
                }
            }
            StmtKind::Omp { body, .. } => {
                if let Some(b) = body {
                    self.stmt(b, d);
                }
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Return(_) | StmtKind::Goto(_) => {
                self.nest.opaque.push((
                    span,
                    "a jump (`break`, `continue`, `return`, `goto`)".into(),
                ));
                if let StmtKind::Return(Some(e)) = self.func.stmt(s).kind {
                    self.expr(e);
                }
            }
            StmtKind::RangeFor { range, body, .. } => {
                self.havoc(s);
                self.expr(range);
                self.stmt(body, d);
                self.havoc(s);
            }
            StmtKind::Opaque {
                what,
                exprs,
                children,
            } => {
                self.nest
                    .opaque
                    .push((span, format!("{what} is not analysed")));
                for e in exprs {
                    self.expr(e);
                }
                for c in children {
                    self.stmt(c, d);
                }
            }
            StmtKind::Null => {}
        }
    }

    fn merge(
        &mut self,
        g: &Cond,
        then: BTreeMap<VarId, Value>,
        els: BTreeMap<VarId, Value>,
    ) -> BTreeMap<VarId, Value> {
        let mut out = BTreeMap::new();
        for (v, a) in &then {
            let Some(b) = els.get(v) else { continue };
            if a == b {
                out.insert(*v, a.clone());
                continue;
            }
            let mut cands = Vec::new();
            for (positive, val) in [(true, a), (false, b)] {
                for (gs, p) in &val.cands {
                    let mut gs = gs.clone();
                    gs.push(Guard {
                        cond: g.clone(),
                        positive,
                    });
                    cands.push((gs, p.clone()));
                }
            }
            let value = if cands.len() <= MAX_CANDS {
                Value { cands }
            } else {
                let name = self.name(*v);
                Value::of(self.varying(&name))
            };
            out.insert(*v, value);
        }
        out
    }

    fn for_loop(&mut self, s: StmtId, f: &crate::ir::ForLoop, d: usize) {
        let header = nest::header(self.module, self.func, f);
        if let Some(i) = f.init {
            self.stmt(i, d);
        }
        for e in f.cond.iter() {
            for a in accesses(self.module, self.func, &[*e]) {
                if a.is_indirect() {
                    self.expr(*e);
                    break;
                }
            }
        }
        let Some(h) = header else {
            self.nest.opaque.push((
                self.func.stmt(s).span,
                "a loop that is not in canonical form".into(),
            ));
            self.havoc(s);
            self.loops.push(s);
            self.stmt(f.body, d);
            self.loops.pop();
            self.havoc(s);
            return;
        };
        let first = self.eval(h.first, 0);
        let bound = self.eval(h.bound, 0);
        let (first, min, max) = nest::bounds(
            &h,
            first.as_ref().and_then(Value::single),
            bound.as_ref().and_then(Value::single),
        );
        let atom = self.name(h.iv);
        self.nest.atoms.insert(atom.clone(), AtomKind::Iv(s));
        // `iv < n` with iv starting at 0 or more: a loop that runs has n >= 1.
        if let (Some(lo), Some(b)) = (&min, bound.as_ref().and_then(Value::single)) {
            if lo.as_const().is_some_and(|c| c >= 0) && h.step > 0 && b.terms().count() == 1 {
                if let Some((factors, 1)) = b.terms().next() {
                    if factors.len() == 1 {
                        self.nest.positive.insert(factors[0].to_string());
                    }
                }
            }
        }
        let header_span =
            nest::header_span(self.source, self.func, s).unwrap_or(self.func.stmt(s).span);
        self.nest.loops.insert(
            s,
            LoopInfo {
                stmt: s,
                iv: h.iv,
                atom: atom.clone(),
                trip: nest::trip_count(min.as_ref(), max.as_ref(), h.step),
                first,
                min,
                max,
                step: h.step,
                header: header_span,
            },
        );
        self.havoc(f.body);
        if let Some(st) = f.step {
            for a in accesses(self.module, self.func, &[st]) {
                if a.is_indirect() {
                    self.expr(st);
                    break;
                }
            }
        }
        self.env.insert(h.iv, Value::of(Poly::atom(&atom)));
        self.loops.push(s);
        self.stmt(f.body, d);
        self.loops.pop();
        self.havoc(s);
    }
}

fn integral(k: &TypeKind) -> bool {
    matches!(k, TypeKind::Bool | TypeKind::Integer | TypeKind::Enum)
}

fn index_class(c: crate::ir::TypeClass) -> bool {
    use crate::ir::TypeClass;
    matches!(
        c,
        TypeClass::Scalar | TypeClass::Dependent | TypeClass::Unknown
    )
}
