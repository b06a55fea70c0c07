//! How many elements the data behind a struct's pointer member holds, read from an integer
//! member beside it (`SD.num_nucs` holds `SD.length_num_nucs` ints), when every store of the
//! project that omplens reads says so.
//!
//! A file's [`Evidence`] lists, per block of statements that stores members of a local or
//! parameter of record type, the pointer members it stores, the integer members it stores,
//! and which of them agree at the block's end: the pointer's allocation (`malloc`, `calloc`,
//! `new[]`, or a function returning one) holds `length × size` bytes. [`infer`] accepts a
//! pair only when every block storing either member pairs them the same way (a length set
//! to 0 alone is a shrink, and harmless), and nothing writes them another way (`+=`, `++`,
//! through their address, the whole object read from a file without storing the pointer
//! again). What no file shows, such as aliases of the object or struct copies from raw memory,
//! is assumed not to happen (as for the other effects of this analysis).

use crate::ir::{Callee, ExprId, ExprKind, FuncId, Function, Module, StmtId, StmtKind};
use crate::ir::{TypeClass, TypeKind, UnaryOp, VarId};
use crate::semantics::allocation;
use crate::semantics::symbolic::{ExprPolys, Poly};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What one file's function bodies say about the members they store.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    pub blocks: Vec<BlockFacts>,
    /// (record, member) written some other way than a plain store; record "" for a store
    /// through a base omplens cannot type (`a[i].p = ...`), which breaks the name everywhere.
    pub broken: BTreeSet<(String, String)>,
}

/// One block's stores into one object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockFacts {
    pub record: String,
    /// Pointer members the block stores.
    pub pointers: BTreeSet<String>,
    /// Integer members the block stores, left with a value not known to be 0.
    pub lengths: BTreeSet<String>,
    /// (pointer, length, element size in bytes) that agree at the block's end.
    pub pairs: BTreeSet<(String, String, i64)>,
    /// The block writes the whole object through its address (`fread(&s, ...)`); pointer
    /// members not stored after that come from wherever the object came from.
    pub whole_write: bool,
    /// Pointer members stored after the block's last whole write.
    pub restored: BTreeSet<String>,
}

/// The length member and element size of `record`'s pointer member `field`, if every block
/// of `evidence` that stores either pairs them.
pub fn infer(evidence: &[&Evidence], record: &str, field: &str) -> Option<(String, i64)> {
    let broken = |m: &str| {
        evidence.iter().any(|e| {
            e.broken.contains(&(record.to_string(), m.to_string()))
                || e.broken.contains(&(String::new(), m.to_string()))
        })
    };
    if broken(field) {
        return None;
    }
    let blocks: Vec<&BlockFacts> = evidence
        .iter()
        .flat_map(|e| e.blocks.iter())
        .filter(|b| b.record == record)
        .collect();
    if blocks
        .iter()
        .any(|b| b.whole_write && !b.restored.contains(field))
    {
        return None;
    }
    let mut candidates: Option<BTreeSet<(String, i64)>> = None;
    for b in blocks.iter().filter(|b| b.pointers.contains(field)) {
        let here: BTreeSet<(String, i64)> = b
            .pairs
            .iter()
            .filter(|(p, _, _)| p == field)
            .map(|(_, g, k)| (g.clone(), *k))
            .collect();
        candidates = Some(match candidates {
            None => here,
            Some(c) => c.intersection(&here).cloned().collect(),
        });
    }
    let candidates = candidates?;
    let holds = |(g, k): &(String, i64)| {
        !broken(g)
            && blocks
                .iter()
                .filter(|b| b.lengths.contains(g))
                .all(|b| b.pairs.contains(&(field.to_string(), g.clone(), *k)))
    };
    let good: Vec<&(String, i64)> = candidates.iter().filter(|c| holds(c)).collect();
    // Two members may both hold the length (`length_concs = length_mats`): the one named
    // after the pointer reads best.
    good.iter()
        .find(|(g, _)| g.contains(field))
        .or_else(|| good.first())
        .map(|(g, k)| (g.clone(), *k))
}

/// The evidence of every function body of `module`.
pub fn evidence(module: &Module) -> Evidence {
    let mut out = Evidence::default();
    for (id, f) in module.functions.iter_enumerated() {
        if !f.has_body || f.in_system_header {
            continue;
        }
        crate::budget::tick("reading the stores of struct members");
        let mut w = Walker {
            module,
            func: id,
            f,
            out: &mut out,
            fresh: 0,
        };
        w.function();
    }
    out
}

/// A member access `B.h` / `B->h` whose base is a variable of record type.
struct MemberOf {
    base: VarId,
    record: String,
    field: String,
}

/// The record a variable is (or points to, for `->`).
pub fn record_of(module: &Module, v: VarId, arrow: bool) -> Option<String> {
    let ty = module.var(v).ty.referent();
    let ty = if arrow {
        match &ty.kind {
            TypeKind::Pointer(t) => t.referent(),
            _ => return None,
        }
    } else {
        ty
    };
    match &ty.kind {
        TypeKind::Record(name) => Some(record_key(name)),
        _ => None,
    }
}

/// A record's name without qualifiers or tag keyword (`const struct S` -> `S`).
pub fn record_key(name: &str) -> String {
    name.split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "struct" | "class" | "union"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn member_of(module: &Module, f: &Function, e: ExprId) -> Option<MemberOf> {
    let ExprKind::Member {
        base: Some(b),
        field,
        arrow,
    } = &f.expr(f.strip_casts(e)).kind
    else {
        return None;
    };
    let ExprKind::Var(v) = f.expr(f.strip_casts(*b)).kind else {
        return None;
    };
    Some(MemberOf {
        base: v,
        record: record_of(module, v, *arrow)?,
        field: field.clone(),
    })
}

/// The member a store or increment writes: Ok(member) for a typed base, Err(field name) for
/// a member of something else, None when `e` is no member.
fn written_member(module: &Module, f: &Function, e: ExprId) -> Option<Result<MemberOf, String>> {
    match &f.expr(f.strip_casts(e)).kind {
        ExprKind::Member { field, .. } => {
            Some(member_of(module, f, e).ok_or_else(|| field.clone()))
        }
        _ => None,
    }
}

struct Walker<'a> {
    module: &'a Module,
    func: FuncId,
    f: &'a Function,
    out: &'a mut Evidence,
    fresh: usize,
}

/// The running state of one block.
#[derive(Default)]
struct Block {
    /// Current value of an integer member, in terms of the values at the block's entry
    /// (an atom `B.h` is the entry value; a fresh atom, one nobody can match).
    values: BTreeMap<(VarId, String), Poly>,
    /// Bytes of the allocation a pointer member got in this block (None: not known).
    pointers: BTreeMap<(VarId, String), Option<Poly>>,
    /// Integer members stored directly in the block.
    lengths: BTreeSet<(VarId, String)>,
    /// Objects written whole, with the pointer members stored since.
    whole: BTreeMap<VarId, BTreeSet<String>>,
    records: BTreeMap<VarId, String>,
}

impl Walker<'_> {
    fn function(&mut self) {
        let Some(body) = self.f.body else { return };
        let mut stack = vec![body];
        let mut seen = BTreeSet::new();
        while let Some(s) = stack.pop() {
            if !seen.insert(s) {
                continue;
            }
            let kind = &self.f.stmt(s).kind;
            match kind {
                StmtKind::Compound(list) => self.block(list),
                _ => {
                    // The body of a control statement that is no `{ }`: a block of one.
                    for c in crate::ir::stmt_children(kind) {
                        if !matches!(self.f.stmt(c).kind, StmtKind::Compound(_)) {
                            self.block(&[c]);
                        }
                    }
                }
            }
            stack.extend(crate::ir::stmt_children(kind));
        }
    }

    fn fresh_atom(&mut self, v: VarId, field: &str) -> Poly {
        self.fresh += 1;
        Poly::atom(&format!(
            "{}.{field}#{}",
            self.module.var(v).name,
            self.fresh
        ))
    }

    fn block(&mut self, list: &[StmtId]) {
        let mut b = Block::default();
        for &s in list {
            let direct = match &self.f.stmt(s).kind {
                StmtKind::Expr(e) => self.direct_store(*e),
                _ => None,
            };
            // Everything else the statement writes, nested statements included.
            let mut exprs = Vec::new();
            own_exprs_deep(self.f, s, &mut exprs);
            let read_only = read_only_addresses(self.module, self.f, &exprs);
            for e in exprs {
                if Some(e) == direct.as_ref().map(|d| d.0) || read_only.contains(&e) {
                    continue;
                }
                self.other_write(&mut b, e);
            }
            if let Some((_, m, rhs)) = direct {
                self.store(&mut b, m, rhs);
            }
        }
        self.finish(b);
    }

    /// `B.h = rhs` as a whole statement: (the assignment, the member, rhs).
    fn direct_store(&self, e: ExprId) -> Option<(ExprId, MemberOf, ExprId)> {
        let e = self.f.strip_casts(e);
        let ExprKind::Assign(None, l, r) = self.f.expr(e).kind else {
            return None;
        };
        Some((e, member_of(self.module, self.f, l)?, r))
    }

    /// Writes other than the block's own direct stores.
    fn other_write(&mut self, b: &mut Block, e: ExprId) {
        let (module, f) = (self.module, self.f);
        let invalidate = |w: &mut Self, b: &mut Block, m: &MemberOf| {
            let key = (m.base, m.field.clone());
            let atom = w.fresh_atom(m.base, &m.field);
            b.values.insert(key.clone(), atom);
            if let Some(p) = b.pointers.get_mut(&key) {
                *p = None;
            }
        };
        match &f.expr(e).kind {
            // A copy of another object: its members' values are not the ones stored here.
            ExprKind::Assign(_, l, _)
                if matches!(f.expr(f.strip_casts(*l)).kind, ExprKind::Var(_)) =>
            {
                if let ExprKind::Var(v) = f.expr(f.strip_casts(*l)).kind {
                    self.forget(b, v);
                }
            }
            ExprKind::Assign(op, l, _) => match written_member(module, f, *l) {
                Some(Ok(m)) => {
                    if op.is_some() {
                        self.out.broken.insert((m.record.clone(), m.field.clone()));
                    }
                    invalidate(self, b, &m);
                }
                Some(Err(field)) => {
                    self.out.broken.insert((String::new(), field));
                }
                None => {}
            },
            ExprKind::Unary(op, x) if op.is_increment() || *op == UnaryOp::AddrOf => {
                match written_member(module, f, *x) {
                    Some(Ok(m)) => {
                        self.out.broken.insert((m.record.clone(), m.field.clone()));
                        invalidate(self, b, &m);
                    }
                    Some(Err(field)) if op.is_increment() => {
                        self.out.broken.insert((String::new(), field));
                    }
                    _ => {
                        if *op == UnaryOp::AddrOf {
                            if let ExprKind::Var(v) = f.expr(f.strip_casts(*x)).kind {
                                self.whole_write(b, v);
                            }
                        }
                    }
                }
            }
            ExprKind::Call {
                callee: Callee::Direct(id),
                args,
                ..
            } => {
                // An object passed to a non-const lvalue reference parameter may be rewritten
                // whole (not by a constructor: a copy or move leaves the source's pairs).
                let callee = module.function(*id);
                let special = callee.name.starts_with("operator")
                    || callee.qualified_name.rsplit("::").nth(1) == Some(callee.name.as_str());
                for (i, a) in args.iter().enumerate() {
                    let Some(&p) = callee.params.get(i) else {
                        break;
                    };
                    let ty = &module.var(p).ty;
                    if let TypeKind::Reference(t) = &ty.kind {
                        if !t.is_const && !special && !ty.spelling.contains("&&") {
                            if let ExprKind::Var(v) = f.expr(f.strip_casts(*a)).kind {
                                self.whole_write(b, v);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn whole_write(&mut self, b: &mut Block, v: VarId) {
        let Some(record) = record_of(self.module, v, false) else {
            return;
        };
        b.records.insert(v, record);
        b.whole.insert(v, BTreeSet::new());
        self.forget(b, v);
    }

    /// Nothing known any more about `v`'s members in this block.
    fn forget(&mut self, b: &mut Block, v: VarId) {
        let keys: Vec<(VarId, String)> = b
            .values
            .keys()
            .chain(b.pointers.keys())
            .filter(|(x, _)| *x == v)
            .cloned()
            .collect();
        for (x, field) in keys {
            let atom = self.fresh_atom(x, &field);
            b.values.insert((x, field.clone()), atom);
            if let Some(p) = b.pointers.get_mut(&(x, field)) {
                *p = None;
            }
        }
    }

    fn store(&mut self, b: &mut Block, m: MemberOf, rhs: ExprId) {
        b.records.insert(m.base, m.record.clone());
        let key = (m.base, m.field.clone());
        let mut polys = ExprPolys::naming_macros(self.module, self.f);
        if matches!(
            self.f.expr(rhs).class,
            TypeClass::Pointer | TypeClass::PointerToConst
        ) {
            let bytes = allocation::bytes_of(self.module, self.func, &mut polys, rhs)
                .map(|p| substitute_members(self.module, &b.values, &p));
            b.pointers.insert(key.clone(), bytes);
            if let Some(r) = b.whole.get_mut(&m.base) {
                r.insert(m.field);
            }
        } else {
            let value = match polys.poly(rhs) {
                Some(p) => substitute_members(self.module, &b.values, &p),
                None => self.fresh_atom(m.base, &m.field),
            };
            b.values.insert(key.clone(), value);
            b.lengths.insert(key);
        }
    }

    fn finish(&mut self, b: Block) {
        let mut facts: BTreeMap<VarId, BlockFacts> = BTreeMap::new();
        let bases: BTreeSet<VarId> = b
            .pointers
            .keys()
            .map(|k| k.0)
            .chain(b.lengths.iter().map(|k| k.0))
            .chain(b.whole.keys().copied())
            .collect();
        for v in bases {
            if !b.pointers.keys().chain(b.lengths.iter()).any(|k| k.0 == v)
                && !b.whole.contains_key(&v)
            {
                continue;
            }
            let Some(record) = b.records.get(&v) else {
                continue;
            };
            let mut fx = BlockFacts {
                record: record.clone(),
                ..BlockFacts::default()
            };
            if let Some(r) = b.whole.get(&v) {
                fx.whole_write = true;
                fx.restored = r.clone();
            }
            for (x, g) in &b.lengths {
                if *x == v && b.values.get(&(*x, g.clone())).and_then(Poly::as_const) != Some(0) {
                    fx.lengths.insert(g.clone());
                }
            }
            for ((x, p), bytes) in &b.pointers {
                if *x != v {
                    continue;
                }
                fx.pointers.insert(p.clone());
                let Some(bytes) = bytes else { continue };
                // Candidate lengths: members stored here, and members the size names.
                let name = &self.module.var(v).name;
                let mut lengths: BTreeMap<String, Poly> = b
                    .values
                    .iter()
                    .filter(|((y, _), _)| *y == v)
                    .map(|((_, g), val)| (g.clone(), val.clone()))
                    .collect();
                for a in bytes.atoms() {
                    for sep in [".", "->"] {
                        if let Some(g) = a.strip_prefix(&format!("{name}{sep}")) {
                            if is_identifier(g) {
                                lengths
                                    .entry(g.to_string())
                                    .or_insert_with(|| Poly::atom(a));
                            }
                        }
                    }
                }
                for (g, val) in lengths {
                    if let Some(k) = ratio(bytes, &val) {
                        fx.pairs.insert((p.clone(), g, k));
                    }
                }
            }
            facts.insert(v, fx);
        }
        self.out.blocks.extend(facts.into_values());
    }
}

/// `&x` arguments of calls whose parameter points to const (`fwrite(&s, ...)`): read, not
/// written.
fn read_only_addresses(module: &Module, f: &Function, exprs: &[ExprId]) -> BTreeSet<ExprId> {
    let mut out = BTreeSet::new();
    for &e in exprs {
        let ExprKind::Call {
            callee: Callee::Direct(id),
            args,
            ..
        } = &f.expr(e).kind
        else {
            continue;
        };
        let callee = module.function(*id);
        for (a, p) in args.iter().zip(&callee.params) {
            let to_const = matches!(&module.var(*p).ty.kind, TypeKind::Pointer(t) if t.is_const);
            let a = f.strip_casts(*a);
            if to_const && matches!(f.expr(a).kind, ExprKind::Unary(UnaryOp::AddrOf, _)) {
                out.insert(a);
            }
        }
    }
    out
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

/// `k > 0` with `bytes == value × k`, when `value` is not 0.
fn ratio(bytes: &Poly, value: &Poly) -> Option<i64> {
    let (mono, c) = value.terms().next()?;
    if c == 0 {
        return None;
    }
    let b = bytes
        .terms()
        .find(|(m, _)| *m == mono)
        .map(|(_, b)| b)
        .unwrap_or(0);
    if b == 0 || b % c != 0 {
        return None;
    }
    let k = b / c;
    (k > 0 && *bytes == value.scale(k)).then_some(k)
}

/// `p` with each atom naming a member the block has stored (`B.h`, `B->h`) replaced by the
/// value stored.
fn substitute_members(module: &Module, values: &BTreeMap<(VarId, String), Poly>, p: &Poly) -> Poly {
    let mut out = p.clone();
    for ((v, g), val) in values {
        let name = &module.var(*v).name;
        for sep in [".", "->"] {
            let atom = format!("{name}{sep}{g}");
            if out.contains_atom(&atom) {
                out = out.subst(&atom, val);
            }
        }
    }
    out
}

/// Root expressions a statement holds itself (not its sub-statements).
fn own_exprs(kind: &StmtKind) -> Vec<ExprId> {
    match kind {
        StmtKind::Expr(e) => vec![*e],
        StmtKind::Decl(ds) => ds.iter().filter_map(|(_, i)| *i).collect(),
        StmtKind::If { cond, .. } | StmtKind::While { cond, .. } | StmtKind::Do { cond, .. } => {
            vec![*cond]
        }
        StmtKind::Switch { cond, .. } => vec![*cond],
        StmtKind::For(l) => l.cond.iter().chain(l.step.iter()).copied().collect(),
        StmtKind::RangeFor { range, .. } => vec![*range],
        StmtKind::Case { value, .. } => vec![*value],
        StmtKind::Return(e) => e.iter().copied().collect(),
        _ => Vec::new(),
    }
}

/// Every expression inside statement `s`, its sub-statements' included.
fn own_exprs_deep(f: &Function, s: StmtId, out: &mut Vec<ExprId>) {
    let mut stmts = vec![s];
    let mut exprs = Vec::new();
    while let Some(s) = stmts.pop() {
        let kind = &f.stmt(s).kind;
        exprs.extend(own_exprs(kind));
        stmts.extend(crate::ir::stmt_children(kind));
    }
    let mut seen = BTreeSet::new();
    while let Some(e) = exprs.pop() {
        if !seen.insert(e) {
            continue;
        }
        out.push(e);
        exprs.extend(crate::semantics::symbolic::children(&f.expr(e).kind));
    }
}

/// The length of the data behind `v`, a local pointer of function `id` that copies a
/// member whose length the project shows (`const int *counts = d.counts;` with
/// `d.n_counts` elements): `d.n_counts`, when neither `v`, `d` nor those two members change
/// after the copy in this function.
pub fn copied_member_length(module: &Module, id: FuncId, v: VarId) -> Option<Poly> {
    let f = module.function(id);
    let elem = match &module.var(v).ty.referent().kind {
        TypeKind::Pointer(t) => i64::try_from(t.size?).ok()?,
        _ => return None,
    };
    let (init, decl_at) = f.stmts.iter().find_map(|st| match &st.kind {
        StmtKind::Decl(ds) => ds
            .iter()
            .find(|(d, _)| *d == v)
            .map(|(_, i)| (*i, st.span.start)),
        _ => None,
    })?;
    let init = f.strip_casts(init?);
    let m = member_of(module, f, init)?;
    let ExprKind::Member { arrow, .. } = f.expr(init).kind else {
        return None;
    };
    if !matches!(
        module.var(m.base).storage,
        crate::ir::Storage::Local | crate::ir::Storage::Parameter
    ) {
        return None;
    }
    let (g, k) = module
        .member_lengths
        .get(&(m.record.clone(), m.field.clone()))?;
    if *k != elem {
        return None;
    }
    let is_var =
        |e: ExprId, x: VarId| matches!(f.expr(f.strip_casts(e)).kind, ExprKind::Var(y) if y == x);
    let touches = |e: ExprId| {
        is_var(e, v)
            || is_var(e, m.base)
            || member_of(module, f, e)
                .is_some_and(|w| w.base == m.base && (w.field == m.field || w.field == *g))
    };
    let changed = f.exprs.iter().any(|ex| match &ex.kind {
        ExprKind::Assign(_, l, _) => touches(*l) && (is_var(*l, v) || ex.span.start > decl_at),
        ExprKind::Unary(op, x) => (op.is_increment() || *op == UnaryOp::AddrOf) && touches(*x),
        _ => false,
    });
    if changed {
        return None;
    }
    let sep = if arrow { "->" } else { "." };
    Some(Poly::atom(&format!("{}{sep}{g}", module.var(m.base).name)))
}

pub use allocation::returned_bytes;
