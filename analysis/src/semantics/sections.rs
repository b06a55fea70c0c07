//! Array sections from loop bounds (DawnCC-style symbolic bounds, simplified).
//!
//! [`accessed_section`] finds the extent of a pointer's pointee (or a 1-D array's elements)
//! that some statements (kernel bodies) touch through subscripts: every index expression
//! becomes a [`Poly`]; the induction variables of the `for` loops around it (inside the
//! statements) are replaced by their first and last values, choosing per variable the end
//! that minimises or maximises the index. That needs the index to be monotone in each
//! induction variable: degree one, every term with the variable of one sign, and other atoms
//! assumed non-negative. Anything the analysis cannot bound gives `None`, never a guess.
//!
//! [`allocation_length`] reads the element count of a pointer from its `malloc`-family
//! allocation.

use super::symbolic::{children, Deps, ExprPolys, Poly};
use crate::ir::access::{Escape, Root};
use crate::ir::cfg::{Cfg, LoopId, Node, NodeKind};
use crate::ir::{
    BinaryOp, Callee, ExprId, ExprKind, FuncId, Function, Module, Span, StmtId, StmtKind, TypeKind,
    UnaryOp, VarId,
};
use std::collections::BTreeSet;
use std::fmt;

/// An OpenMP array section `lower:length` (elements `lower` to `lower + length - 1`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Section {
    pub lower: Poly,
    pub length: Poly,
}

impl Section {
    pub fn new(lower: Poly, length: Poly) -> Section {
        Section { lower, length }
    }

    /// The section of elements `first` to `last`, both included.
    pub fn from_bounds(first: &Poly, last: &Poly) -> Section {
        Section {
            lower: first.clone(),
            length: last.sub(first).add(&Poly::constant(1)),
        }
    }

    /// One past the last element: `lower + length`.
    pub fn end(&self) -> Poly {
        self.lower.add(&self.length)
    }

    /// The smallest section holding both, when their lower bounds differ by a constant and so
    /// do their ends; None otherwise (`0:n` and `0:m` cannot be ordered).
    pub fn union(&self, other: &Section) -> Option<Section> {
        let dl = self.lower.sub(&other.lower).as_const()?;
        let de = self.end().sub(&other.end()).as_const()?;
        let lower = if dl <= 0 { &self.lower } else { &other.lower };
        let end = if de >= 0 { self.end() } else { other.end() };
        Some(Section {
            length: end.sub(lower),
            lower: lower.clone(),
        })
    }
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.lower, self.length)
    }
}

/// The extent of `var`'s data (a pointer's pointee or an array's elements) accessed in the
/// CFG nodes of `func` that lie within `stmts` (kernel statements), as one section, or None
/// when it cannot be bounded (or nothing is accessed).
///
/// Handled: `a[e]` (also `a[e][f]`, `a[e].x`: the first subscript counts), `*(a + e)`,
/// `(a + k)[e]`, `*a` and `a->x` (element 0); `e` a polynomial over induction variables of
/// enclosing `for` loops inside `stmts` and symbols not written inside `stmts`. A fixed-size
/// array gives the whole array `0:len` whenever it is accessed at all. Gives up when `a`
/// itself is used otherwise (passed to a call, copied, its element's address taken, assigned).
pub fn accessed_section(
    module: &Module,
    func: FuncId,
    cfg: &Cfg,
    var: VarId,
    stmts: &[StmtId],
) -> Option<Section> {
    let f = module.function(func);
    let spans: Vec<Span> = stmts.iter().map(|s| f.stmt(*s).span).collect();
    let within = |s: StmtId| {
        let sp = f.stmt(s).span;
        spans.iter().any(|k| k.start <= sp.start && sp.end <= k.end)
    };
    let nodes: Vec<(Option<LoopId>, &Node)> = cfg
        .nodes()
        .filter(|(_, n)| within(n.stmt))
        .map(|(b, n)| (cfg.block(b).loop_id, n))
        .collect();
    match &module.var(var).ty.referent().kind {
        TypeKind::Array { len: Some(len), .. } => {
            let touched = nodes
                .iter()
                .any(|(_, n)| n.accesses.iter().any(|a| a.root == Root::Var(var)));
            let len = i64::try_from(*len).ok()?;
            return touched.then(|| Section::new(Poly::zero(), Poly::constant(len)));
        }
        TypeKind::Pointer(_) | TypeKind::Array { len: None, .. } => {}
        _ => return None,
    }
    let loop_inside: Vec<bool> = cfg.loops.iter().map(|l| within(l.stmt)).collect();
    let mut a = Analysis {
        module,
        f,
        cfg,
        var,
        polys: ExprPolys::new(module, f),
        written: BTreeSet::new(),
        stray: BTreeSet::new(),
        loop_inside,
    };
    for (_, n) in &nodes {
        for acc in &n.accesses {
            let Root::Var(x) = acc.root else { continue };
            // A member call's object (`v.size()`) is not taken as written.
            let receiver = matches!(acc.escape, Some(Escape::CallArg { index: None, .. }));
            if !acc.kind.writes() || receiver {
                continue;
            }
            if x == var && acc.path.is_empty() {
                return None;
            }
            a.written.insert(x);
            if !a.header_write(n, x) {
                a.stray.insert(x);
            }
        }
    }
    let mut records: Vec<(Poly, Deps, Option<LoopId>)> = Vec::new();
    for (lid, n) in &nodes {
        let mut found = Vec::new();
        for &e in &n.exprs {
            a.scan(e, &mut found, 0)?;
        }
        records.extend(found.into_iter().map(|(p, d)| (p, d, *lid)));
    }
    let mut out: Option<Section> = None;
    for (p, deps, lid) in &records {
        let s = a.section(p, deps, *lid)?;
        out = Some(match out {
            None => s,
            Some(o) => o.union(&s)?,
        });
    }
    out
}

struct Analysis<'a> {
    module: &'a Module,
    f: &'a Function,
    cfg: &'a Cfg,
    var: VarId,
    polys: ExprPolys<'a>,
    /// Variables written inside the statements (any path, any loop header).
    written: BTreeSet<VarId>,
    /// Variables written inside the statements other than by the init or step of a `for`
    /// loop they are the induction variable of.
    stray: BTreeSet<VarId>,
    /// Per loop: whether it lies inside the statements.
    loop_inside: Vec<bool>,
}

const MAX_DEPTH: usize = 500;

impl Analysis<'_> {
    /// Whether `n` is the init or step of a loop inside the statements whose induction
    /// variable is `x`.
    fn header_write(&self, n: &Node, x: VarId) -> bool {
        self.cfg.loops.iter().enumerate().any(|(i, l)| {
            if !self.loop_inside[i] || l.induction != Some(x) {
                return false;
            }
            let StmtKind::For(fl) = &self.f.stmt(l.stmt).kind else {
                return false;
            };
            match n.kind {
                NodeKind::ForInit => fl.init == Some(n.stmt),
                NodeKind::ForStep => l.stmt == n.stmt,
                _ => false,
            }
        })
    }

    fn strip(&self, mut e: ExprId) -> ExprId {
        while let ExprKind::Cast(x) = self.f.expr(e).kind {
            e = x;
        }
        e
    }

    fn is_var_expr(&self, e: ExprId, v: VarId) -> bool {
        matches!(self.f.expr(self.strip(e)).kind, ExprKind::Var(x) if x == v)
    }

    /// When `e` is `var` plus or minus offsets (`a`, `a + k`, `(a + i) - j`), the offsets
    /// with their signs.
    fn based(&self, e: ExprId, depth: usize) -> Option<Vec<(ExprId, bool)>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let e = self.strip(e);
        match self.f.expr(e).kind {
            ExprKind::Var(v) if v == self.var => Some(Vec::new()),
            ExprKind::Binary(BinaryOp::Add, l, r) => {
                if let Some(mut o) = self.based(l, depth + 1) {
                    o.push((r, true));
                    Some(o)
                } else {
                    let mut o = self.based(r, depth + 1)?;
                    o.push((l, true));
                    Some(o)
                }
            }
            ExprKind::Binary(BinaryOp::Sub, l, r) => {
                let mut o = self.based(l, depth + 1)?;
                o.push((r, false));
                Some(o)
            }
            _ => None,
        }
    }

    /// Whether the lvalue `e` designates (part of) `var`'s data or `var` itself.
    fn lvalue_based(&self, e: ExprId, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return true;
        }
        let e = self.strip(e);
        match self.f.expr(e).kind {
            ExprKind::Var(v) => v == self.var,
            ExprKind::Subscript(b, _) => {
                self.based(b, 0).is_some() || self.lvalue_based(b, depth + 1)
            }
            ExprKind::Member {
                base: Some(b),
                arrow,
                ..
            } => {
                if arrow {
                    self.based(b, 0).is_some()
                } else {
                    self.lvalue_based(b, depth + 1)
                }
            }
            ExprKind::Unary(UnaryOp::Deref, x) => self.based(x, 0).is_some(),
            _ => false,
        }
    }

    /// Index of an element access at `offsets` plus `index`, after scanning the offsets.
    fn element(
        &mut self,
        offsets: &[(ExprId, bool)],
        index: Option<ExprId>,
        out: &mut Vec<(Poly, Deps)>,
        depth: usize,
    ) -> Option<()> {
        let mut deps = Deps::new();
        let mut p = match index {
            Some(i) => {
                self.scan(i, out, depth)?;
                let (p, d) = self.polys.poly_with_deps(i)?;
                merge(&mut deps, d);
                p
            }
            None => Poly::zero(),
        };
        for &(x, plus) in offsets {
            self.scan(x, out, depth)?;
            let (q, d) = self.polys.poly_with_deps(x)?;
            merge(&mut deps, d);
            p = if plus { p.add(&q) } else { p.sub(&q) };
        }
        out.push((p, deps));
        Some(())
    }

    /// Collects the index of every element access of `var` in `e`; None when `var` is used
    /// in a way that is not an element access or a test (`a != NULL`).
    fn scan(&mut self, e: ExprId, out: &mut Vec<(Poly, Deps)>, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        match &self.f.expr(e).kind {
            ExprKind::Subscript(b, i) => match self.based(*b, 0) {
                Some(offs) => self.element(&offs, Some(*i), out, d)?,
                None => {
                    self.scan(*b, out, d)?;
                    self.scan(*i, out, d)?;
                }
            },
            ExprKind::Unary(UnaryOp::Deref, x)
            | ExprKind::Member {
                base: Some(x),
                arrow: true,
                ..
            } => match self.based(*x, 0) {
                Some(offs) => self.element(&offs, None, out, d)?,
                None => self.scan(*x, out, d)?,
            },
            ExprKind::Unary(UnaryOp::AddrOf, x) => {
                if self.lvalue_based(*x, 0) {
                    return None;
                }
                self.scan(*x, out, d)?;
            }
            ExprKind::Binary(
                BinaryOp::Lt
                | BinaryOp::Gt
                | BinaryOp::Le
                | BinaryOp::Ge
                | BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::And
                | BinaryOp::Or,
                l,
                r,
            ) => {
                for x in [*l, *r] {
                    if !self.is_var_expr(x, self.var) {
                        self.scan(x, out, d)?;
                    }
                }
            }
            ExprKind::Unary(UnaryOp::Not, x) if self.is_var_expr(*x, self.var) => {}
            ExprKind::Cond(c, t, fl) if self.is_var_expr(*c, self.var) => {
                self.scan(*t, out, d)?;
                self.scan(*fl, out, d)?;
            }
            ExprKind::Var(v) if *v == self.var => return None,
            k => {
                for c in children(k) {
                    self.scan(c, out, d)?;
                }
            }
        }
        Some(())
    }

    /// None unless every atom of `p` is either one of `ivs` by its bare name, or mentions
    /// only variables not written inside the statements.
    fn check_atoms(&self, p: &Poly, deps: &Deps, ivs: &[VarId]) -> Option<()> {
        for atom in p.atoms() {
            let deps = deps.get(atom)?;
            for d in deps {
                if ivs.contains(d) {
                    if self.module.var(*d).name != atom {
                        return None;
                    }
                } else if self.written.contains(d) {
                    return None;
                }
            }
        }
        Some(())
    }

    /// The section of index `idx` evaluated in the loops around a node of loop `lid`.
    fn section(&mut self, idx: &Poly, deps: &Deps, lid: Option<LoopId>) -> Option<Section> {
        let chain: Vec<(VarId, LoopId)> = match lid {
            Some(l) => self
                .cfg
                .loop_chain(l)
                .filter(|l| self.loop_inside[l.0 as usize])
                .filter_map(|l| self.cfg.loops[l.0 as usize].induction.map(|v| (v, l)))
                .collect(),
            None => Vec::new(),
        };
        let ivs: Vec<VarId> = chain.iter().map(|c| c.0).collect();
        if ivs.iter().collect::<BTreeSet<_>>().len() != ivs.len() {
            return None;
        }
        let names: Vec<String> = ivs
            .iter()
            .map(|v| self.module.var(*v).name.clone())
            .collect();
        self.check_atoms(idx, deps, &ivs)?;
        let (mut lo, mut hi) = (idx.clone(), idx.clone());
        for (k, &(v, l)) in chain.iter().enumerate() {
            let name = &names[k];
            if !lo.contains_atom(name) && !hi.contains_atom(name) {
                continue;
            }
            if self.stray.contains(&v) {
                return None;
            }
            let (first, last) = self.loop_range(l, v, &ivs[k + 1..])?;
            lo = extreme(&lo, name, &first, &last, true, &names)?;
            hi = extreme(&hi, name, &first, &last, false, &names)?;
        }
        Some(Section::from_bounds(&lo, &hi))
    }

    /// The smallest and largest value of induction variable `v` of loop `l`, whose bounds may
    /// use the induction variables `outer` of the loops around it.
    fn loop_range(&mut self, l: LoopId, v: VarId, outer: &[VarId]) -> Option<(Poly, Poly)> {
        let StmtKind::For(fl) = &self.f.stmt(self.cfg.loops[l.0 as usize].stmt).kind else {
            return None;
        };
        let init = self.init_value(fl.init?, v)?;
        let step = self.step_of(fl.step?, v, 0)?;
        let mut bounds = Vec::new();
        self.cond_bounds(fl.cond?, v, &mut bounds, 0);
        let (first, deps) = self.polys.poly_with_deps(init)?;
        self.check_atoms(&first, &deps, outer)?;
        let one = Poly::constant(1);
        for (op, b) in bounds {
            let Some((b, deps)) = self.polys.poly_with_deps(b) else {
                continue;
            };
            if self.check_atoms(&b, &deps, outer).is_none() {
                continue;
            }
            let last = match (step > 0, op) {
                (true, BinaryOp::Lt) => b.sub(&one),
                (true, BinaryOp::Le) => b,
                (true, BinaryOp::Ne) if step == 1 => b.sub(&one),
                (false, BinaryOp::Gt) => b.add(&one),
                (false, BinaryOp::Ge) => b,
                (false, BinaryOp::Ne) if step == -1 => b.add(&one),
                _ => continue,
            };
            return Some(if step > 0 {
                (first, last)
            } else {
                (last, first)
            });
        }
        None
    }

    /// The initial value of `v` in a `for` init statement.
    fn init_value(&self, init: StmtId, v: VarId) -> Option<ExprId> {
        match &self.f.stmt(init).kind {
            StmtKind::Decl(ds) => ds.iter().find(|(x, _)| *x == v).and_then(|(_, e)| *e),
            StmtKind::Expr(e) => self.assigned_in(*e, v, 0),
            _ => None,
        }
    }

    fn assigned_in(&self, e: ExprId, v: VarId, depth: usize) -> Option<ExprId> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.f.expr(e).kind {
            ExprKind::Assign(None, l, r) if self.is_var_expr(l, v) => Some(r),
            ExprKind::Binary(BinaryOp::Comma, a, b) => self
                .assigned_in(a, v, depth + 1)
                .or_else(|| self.assigned_in(b, v, depth + 1)),
            _ => None,
        }
    }

    /// The constant step of `v` in a `for` step expression (`i++`, `i += 2`, `i = i - 1`).
    fn step_of(&mut self, e: ExprId, v: VarId, depth: usize) -> Option<i64> {
        if depth > MAX_DEPTH {
            return None;
        }
        let step = match self.f.expr(e).kind {
            ExprKind::Unary(UnaryOp::PostInc | UnaryOp::PreInc, x) if self.is_var_expr(x, v) => 1,
            ExprKind::Unary(UnaryOp::PostDec | UnaryOp::PreDec, x) if self.is_var_expr(x, v) => -1,
            ExprKind::Assign(Some(BinaryOp::Add), x, c) if self.is_var_expr(x, v) => {
                self.polys.poly(c)?.as_const()?
            }
            ExprKind::Assign(Some(BinaryOp::Sub), x, c) if self.is_var_expr(x, v) => {
                self.polys.poly(c)?.as_const()?.checked_neg()?
            }
            ExprKind::Assign(None, x, r) if self.is_var_expr(x, v) => {
                match self.f.expr(self.strip(r)).kind {
                    ExprKind::Binary(BinaryOp::Add, a, b) if self.is_var_expr(a, v) => {
                        self.polys.poly(b)?.as_const()?
                    }
                    ExprKind::Binary(BinaryOp::Add, a, b) if self.is_var_expr(b, v) => {
                        self.polys.poly(a)?.as_const()?
                    }
                    ExprKind::Binary(BinaryOp::Sub, a, b) if self.is_var_expr(a, v) => {
                        self.polys.poly(b)?.as_const()?.checked_neg()?
                    }
                    _ => return None,
                }
            }
            ExprKind::Binary(BinaryOp::Comma, a, b) => {
                return self
                    .step_of(a, v, depth + 1)
                    .or_else(|| self.step_of(b, v, depth + 1))
            }
            _ => return None,
        };
        (step != 0).then_some(step)
    }

    /// Comparisons of `v` in a loop condition (conjuncts of `&&` included), normalised to
    /// `v op bound`.
    fn cond_bounds(&self, e: ExprId, v: VarId, out: &mut Vec<(BinaryOp, ExprId)>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let ExprKind::Binary(op, l, r) = self.f.expr(e).kind else {
            return;
        };
        let flip = |op: BinaryOp| match op {
            BinaryOp::Lt => BinaryOp::Gt,
            BinaryOp::Gt => BinaryOp::Lt,
            BinaryOp::Le => BinaryOp::Ge,
            BinaryOp::Ge => BinaryOp::Le,
            o => o,
        };
        match op {
            BinaryOp::And => {
                self.cond_bounds(l, v, out, depth + 1);
                self.cond_bounds(r, v, out, depth + 1);
            }
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Ne => {
                if self.is_var_expr(l, v) {
                    out.push((op, r));
                } else if self.is_var_expr(r, v) {
                    out.push((flip(op), l));
                }
            }
            _ => {}
        }
    }
}

fn merge(into: &mut Deps, from: Deps) {
    for (k, v) in from {
        into.entry(k).or_default().extend(v);
    }
}

/// `p` with atom `v` replaced by the end of `[first, last]` that minimises (`want_min`) or
/// maximises it; None unless `p` is monotone in `v`: degree one, all terms with `v` of one
/// sign and free of the other induction variables `ivs` (other atoms are taken as
/// non-negative).
fn extreme(
    p: &Poly,
    v: &str,
    first: &Poly,
    last: &Poly,
    want_min: bool,
    ivs: &[String],
) -> Option<Poly> {
    let mut sign = 0;
    for (key, c) in p.terms() {
        let k = key.iter().filter(|a| *a == v).count();
        if k == 0 {
            continue;
        }
        if k > 1 || key.iter().any(|a| a != v && ivs.contains(a)) {
            return None;
        }
        let s = c.signum();
        if sign != 0 && sign != s {
            return None;
        }
        sign = s;
    }
    if sign == 0 {
        return Some(p.clone());
    }
    let by = if (sign > 0) == want_min { first } else { last };
    Some(p.subst(v, by))
}

/// The element count of the allocation a pointer `var` holds: `var` initialised or assigned in
/// `func` from `malloc(E)`, `calloc(n, s)`, `aligned_alloc(a, E)`, `realloc(p, E)`,
/// `posix_memalign(&var, a, E)`, `_mm_malloc(E, a)`, `omp_alloc(E, al)` or
/// `omp_aligned_alloc(a, E, al)` (casts looked through), `E` divided exactly by the element
/// size (`sizeof` is folded by the front end). Assignments of a null pointer are ignored; any
/// other assignment, `var += k`, `var++` or `&var` elsewhere gives None, and so do two
/// allocations of different lengths. Only `func`'s statements are looked at; the length is in
/// terms of the variables as they are at the allocation. C++ `new T[n]` is not recognised (the
/// IR does not tell it from `new T(n)`).
pub fn allocation_length(module: &Module, func: FuncId, var: VarId) -> Option<Poly> {
    let f = module.function(func);
    let elem = match &module.var(var).ty.referent().kind {
        TypeKind::Pointer(t) if !matches!(t.kind, TypeKind::Void) => t.size.filter(|s| *s > 0)?,
        _ => return None,
    };
    let elem = i64::try_from(elem).ok()?;
    let strip = |mut e: ExprId| {
        while let ExprKind::Cast(x) = f.expr(e).kind {
            e = x;
        }
        e
    };
    let is_var = |e: ExprId| matches!(f.expr(strip(e)).kind, ExprKind::Var(x) if x == var);
    // Size expressions in bytes (None: an assignment that is not an allocation).
    let mut sizes: Vec<Option<Vec<ExprId>>> = Vec::new();
    let mut memalign_addr: BTreeSet<ExprId> = BTreeSet::new();
    let alloc_bytes = |rhs: ExprId| -> Option<Option<Vec<ExprId>>> {
        let rhs = strip(rhs);
        match &f.expr(rhs).kind {
            ExprKind::NullPtr | ExprKind::Int { value: Some(0), .. } => None,
            ExprKind::Call { callee, args, .. } => {
                let arg = |i: usize| args.get(i).copied();
                let bytes = match name_of(module, callee) {
                    Some("malloc") | Some("_mm_malloc") | Some("omp_alloc") => {
                        arg(0).map(|a| vec![a])
                    }
                    Some("calloc") => match (arg(0), arg(1)) {
                        (Some(a), Some(b)) => Some(vec![a, b]),
                        _ => None,
                    },
                    Some("aligned_alloc") | Some("realloc") | Some("omp_aligned_alloc") => {
                        arg(1).map(|a| vec![a])
                    }
                    _ => None,
                };
                Some(bytes)
            }
            _ => Some(None),
        }
    };
    for st in &f.stmts {
        if let StmtKind::Decl(ds) = &st.kind {
            for (v, init) in ds {
                if let (true, Some(i)) = (*v == var, init) {
                    sizes.extend(alloc_bytes(*i));
                }
            }
        }
    }
    for ex in &f.exprs {
        if let ExprKind::Call { callee, args, .. } = &ex.kind {
            if name_of(module, callee) == Some("posix_memalign") && args.len() == 3 {
                let a0 = strip(args[0]);
                if let ExprKind::Unary(UnaryOp::AddrOf, x) = f.expr(a0).kind {
                    if is_var(x) {
                        memalign_addr.insert(a0);
                        sizes.push(Some(vec![args[2]]));
                    }
                }
            }
        }
    }
    for (i, ex) in f.exprs.iter().enumerate() {
        match ex.kind {
            ExprKind::Assign(None, l, r) if is_var(l) => sizes.extend(alloc_bytes(r)),
            ExprKind::Assign(Some(_), l, _) if is_var(l) => return None,
            ExprKind::Unary(op, x) if op.is_increment() && is_var(x) => return None,
            ExprKind::Unary(UnaryOp::AddrOf, x)
                if is_var(x) && !memalign_addr.contains(&ExprId(i as u32)) =>
            {
                return None
            }
            _ => {}
        }
    }
    let mut polys = ExprPolys::new(module, f);
    let mut found: Option<Poly> = None;
    for s in sizes {
        let mut bytes = Poly::constant(1);
        for e in s? {
            bytes = bytes.mul(&polys.poly(e)?);
        }
        let len = bytes.div(elem)?;
        if len.scale(elem) != bytes {
            return None;
        }
        match &found {
            Some(p) if *p != len => return None,
            _ => found = Some(len),
        }
    }
    found
}

fn name_of<'a>(module: &'a Module, c: &'a Callee) -> Option<&'a str> {
    match c {
        Callee::Direct(id) => Some(module.function(*id).name.as_str()),
        Callee::Named(n) => Some(n.as_str()),
        Callee::Indirect(_) => None,
    }
}

/// Sections of `var` that the kernel statement `kernel` certainly writes in full: writes
/// `var[e]` that run on every iteration of the loop around them inside the kernel, where `e`
/// is that loop's induction variable (stepping by one) plus a constant. A kernel that covers
/// what it maps need not receive the old contents first.
pub fn covered_sections(
    module: &Module,
    func: FuncId,
    cfg: &Cfg,
    var: VarId,
    kernel: StmtId,
) -> Vec<Section> {
    let f = module.function(func);
    let span = f.stmt(kernel).span;
    let within = |s: StmtId| {
        let sp = f.stmt(s).span;
        span.start <= sp.start && sp.end <= span.end
    };
    let mut every_iteration = BTreeSet::new();
    unconditional(f, kernel, true, &mut every_iteration, 0);
    let loop_inside: Vec<bool> = cfg.loops.iter().map(|l| within(l.stmt)).collect();
    let mut a = Analysis {
        module,
        f,
        cfg,
        var,
        polys: ExprPolys::new(module, f),
        written: BTreeSet::new(),
        stray: BTreeSet::new(),
        loop_inside,
    };
    let nodes: Vec<(Option<LoopId>, &Node)> = cfg
        .nodes()
        .filter(|(_, n)| within(n.stmt))
        .map(|(b, n)| (cfg.block(b).loop_id, n))
        .collect();
    for (_, n) in &nodes {
        for acc in &n.accesses {
            let Root::Var(x) = acc.root else { continue };
            let receiver = matches!(acc.escape, Some(Escape::CallArg { index: None, .. }));
            if acc.kind.writes() && !receiver {
                a.written.insert(x);
                if !a.header_write(n, x) {
                    a.stray.insert(x);
                }
            }
        }
    }
    let mut out = Vec::new();
    for (lid, n) in &nodes {
        let Some(l) = *lid else { continue };
        if n.kind != NodeKind::Stmt || !every_iteration.contains(&n.stmt) {
            continue;
        }
        let lp = &cfg.loops[l.0 as usize];
        let Some(iv) = lp.induction else { continue };
        if !a.loop_inside[l.0 as usize] || a.stray.contains(&iv) {
            continue;
        }
        let StmtKind::For(fl) = &f.stmt(lp.stmt).kind else {
            continue;
        };
        if !matches!(fl.step.and_then(|s| a.step_of(s, iv, 0)), Some(1 | -1)) {
            continue;
        }
        // The body of `l` itself, not of a loop nested in it.
        if f.stmt(fl.body).span.start > f.stmt(n.stmt).span.start
            || cfg.loops.iter().any(|o| {
                o.stmt != lp.stmt
                    && within(o.stmt)
                    && f.stmt(fl.body).span.start <= f.stmt(o.stmt).span.start
                    && f.stmt(o.stmt).span.start <= f.stmt(n.stmt).span.start
                    && f.stmt(n.stmt).span.end <= f.stmt(o.stmt).span.end
            })
        {
            continue;
        }
        for acc in &n.accesses {
            let (Root::Var(x), [crate::ir::access::PathElem::Index(e)]) =
                (acc.root, acc.path.as_slice())
            else {
                continue;
            };
            if x != var || acc.escape.is_some() || !acc.kind.writes() {
                continue;
            }
            let Some((p, deps)) = a.polys.poly_with_deps(*e) else {
                continue;
            };
            let name = module.var(iv).name.clone();
            if p.sub(&Poly::atom(&name)).as_const().is_none() {
                continue;
            }
            if let Some(s) = a.section(&p, &deps, Some(l)) {
                out.push(s);
            }
        }
    }
    out
}

/// Collects the statements under `s` that run every time `s` does, relative to the innermost
/// loop: a loop body runs on every iteration unless it can `break`/`continue`/`return`.
fn unconditional(f: &Function, s: StmtId, on: bool, out: &mut BTreeSet<StmtId>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    if on {
        out.insert(s);
    }
    let d = depth + 1;
    match &f.stmt(s).kind {
        StmtKind::Compound(v) => {
            for c in v {
                unconditional(f, *c, on, out, d);
            }
        }
        StmtKind::Omp { body: Some(b), .. } => unconditional(f, *b, on, out, d),
        StmtKind::For(fl) => {
            if let Some(i) = fl.init {
                unconditional(f, i, on, out, d);
            }
            let clean = !jumps(f, fl.body, 0);
            unconditional(f, fl.body, clean, out, d);
        }
        k => {
            for c in crate::ir::stmt_children(k) {
                unconditional(f, c, false, out, d);
            }
        }
    }
}

/// Whether `s` holds a `break`, `continue`, `return` or `goto`.
fn jumps(f: &Function, s: StmtId, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    match &f.stmt(s).kind {
        StmtKind::Break | StmtKind::Continue | StmtKind::Return(_) | StmtKind::Goto(_) => true,
        k => crate::ir::stmt_children(k)
            .into_iter()
            .any(|c| jumps(f, c, depth + 1)),
    }
}
