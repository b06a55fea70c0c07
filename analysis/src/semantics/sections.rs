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

use super::bounds::{Bound, Extremum};
use super::launch;
use super::symbolic::{children, is_integer, Atom, Deps, ExprPolys, Poly};
use crate::ir::access::{Access, Escape, Root};
use crate::ir::cfg::{Cfg, LoopId, Node, NodeKind};
use crate::ir::{
    BinaryOp, Callee, ExprId, ExprKind, FuncId, Function, IndexVec, Module, Span, StmtId, StmtKind,
    TypeKind, UnaryOp, VarId,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
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
        self.union_known(other, &BTreeMap::new())
    }

    /// [`Section::union`], names of `known` value (macros) comparing by their values.
    pub fn union_known(&self, other: &Section, known: &BTreeMap<String, i64>) -> Option<Section> {
        let diff = |a: Poly, b: Poly| super::constants::substitute(&a.sub(&b), known).as_const();
        let (dl, de) = match (
            diff(self.lower.clone(), other.lower.clone()),
            diff(self.end(), other.end()),
        ) {
            (Some(dl), Some(de)) => (dl, de),
            _ => Self::order_from_zero(self, other, known)
                .or_else(|| Self::order_from_zero(other, self, known).map(|(l, e)| (-l, -e)))?,
        };
        let lower = if dl <= 0 { &self.lower } else { &other.lower };
        let end = if de >= 0 { self.end() } else { other.end() };
        Some(Section {
            length: end.sub(lower),
            lower: lower.clone(),
        })
    }
}

impl Section {
    /// Orders `a` (from element 0, a constant length) and `b` (from an index `L` that is not
    /// a constant, a constant length at least `a`'s) as the signs of their lower bounds' and
    /// ends' differences: `b` starts at an element the code accesses, so `L >= 0` (an index
    /// below the data's first element is outside it), and `b` ends at or after `a` (`0:1`
    /// and `n - 1:1` give `0:n`, the first and the last element).
    fn order_from_zero(
        a: &Section,
        b: &Section,
        known: &BTreeMap<String, i64>,
    ) -> Option<(i64, i64)> {
        let value = |p: &Poly| super::constants::substitute(p, known).as_const();
        let (lower_a, len_a, len_b) = (value(&a.lower)?, value(&a.length)?, value(&b.length)?);
        (lower_a == 0 && value(&b.lower).is_none() && len_b >= len_a).then_some((-1, -1))
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
/// array gives the whole array `0:len` whenever it is accessed at all. Pointers the
/// statements declare as `a` plus offsets and never change (`row = a + 8 * i`, `&a[k]`) are
/// `a`'s accesses; an element of an offsets array at a counter (`start[r]`) is bounded when a
/// loop runs between two of its neighbours, taking it as non-decreasing. Gives up when `a`
/// itself is used otherwise (passed to a call without a body, copied, its element's address
/// kept, assigned).
pub fn accessed_section(
    module: &Module,
    func: FuncId,
    cfg: &Cfg,
    var: VarId,
    stmts: &[StmtId],
) -> Option<Section> {
    accessed_section_why(module, func, cfg, var, stmts).ok()
}

/// Why no section was found: the access (or use) that defeated the analysis, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unbounded {
    /// The access; None when nothing of the data is accessed at all.
    pub span: Option<Span>,
    /// The access as C text.
    pub text: String,
    pub why: String,
}

impl Unbounded {
    fn at(f: &Function, m: &Module, e: ExprId, why: impl Into<String>) -> Unbounded {
        Unbounded {
            span: Some(f.expr(e).span),
            text: crate::ir::print::expr(m, f, e),
            why: why.into(),
        }
    }
}

/// [`accessed_section`], or the access that defeated it.
pub fn accessed_section_why(
    module: &Module,
    func: FuncId,
    cfg: &Cfg,
    var: VarId,
    stmts: &[StmtId],
) -> Result<Section, Unbounded> {
    analyse_at(module, func, cfg, var, stmts, false, 0)
}

/// [`accessed_section_why`] in the program's own terms: macro uses keep their names
/// (`a[0:N * M]`), for the sections omplens writes.
pub fn accessed_section_named(
    module: &Module,
    func: FuncId,
    cfg: &Cfg,
    var: VarId,
    stmts: &[StmtId],
) -> Result<Section, Unbounded> {
    analyse_at(module, func, cfg, var, stmts, true, 0)
}

/// [`accessed_section_named`], with the arrays the section takes as non-decreasing (the
/// offsets of a compressed list, `cols[start[0]:start[n] - start[0]]`), which the caller
/// must tell the user it assumed.
pub fn accessed_section_assuming(
    module: &Module,
    func: FuncId,
    cfg: &Cfg,
    var: VarId,
    stmts: &[StmtId],
) -> Result<(Section, BTreeSet<VarId>), Unbounded> {
    let mut monotone = BTreeSet::new();
    analyse(module, func, cfg, var, stmts, true, 0, &mut monotone).map(|s| (s, monotone))
}

/// Calls followed into callees, at most (`f` passes its pointer to `g`, which passes it on).
const MAX_CALL_DEPTH: usize = 3;

/// The section of parameter `index` of `callee` that its body accesses, in terms of its own
/// parameters (by name), when the callee has a body and uses that parameter only by
/// indexing (through further callees up to [`MAX_CALL_DEPTH`]).
fn callee_section(
    module: &Module,
    callee: FuncId,
    index: usize,
    named: bool,
    depth: usize,
) -> Option<Section> {
    if depth >= MAX_CALL_DEPTH {
        return None;
    }
    let f = module.function(callee);
    let (param, body) = (*f.params.get(index)?, f.body?);
    if !f.has_body || f.not_analysed.is_some() || !module.var(param).ty.is_pointer() {
        return None;
    }
    let cfg = crate::ir::cfg::build(module, callee, crate::ir::cfg::Exec::Device);
    analyse_at(module, callee, &cfg, param, &[body], named, depth + 1).ok()
}

/// The section of `var` that `stmts` of `func` access (macro names kept when `named`);
/// `depth` counts the calls followed to get here ([`callee_section`]).
#[allow(clippy::too_many_arguments)]
fn analyse_at(
    module: &Module,
    func: FuncId,
    cfg: &Cfg,
    var: VarId,
    stmts: &[StmtId],
    named: bool,
    depth: usize,
) -> Result<Section, Unbounded> {
    analyse(
        module,
        func,
        cfg,
        var,
        stmts,
        named,
        depth,
        &mut BTreeSet::new(),
    )
}

/// [`analyse_at`], adding to `monotone` the arrays it took as non-decreasing.
#[allow(clippy::too_many_arguments)]
fn analyse(
    module: &Module,
    func: FuncId,
    cfg: &Cfg,
    var: VarId,
    stmts: &[StmtId],
    named: bool,
    depth: usize,
    monotone: &mut BTreeSet<VarId>,
) -> Result<Section, Unbounded> {
    let scope = Scope::new(module, func, cfg, stmts);
    analyse_in(&scope, var, named, depth, monotone)
}

/// [`accessed_section`] of a fixed-size array (`double x[N]`) from its element accesses, as
/// for a pointer's data: what a clause's section of the array must cover.
pub fn accessed_elements(
    module: &Module,
    func: FuncId,
    cfg: &Cfg,
    var: VarId,
    stmts: &[StmtId],
) -> Option<Section> {
    let mut scope = Scope::new(module, func, cfg, stmts);
    scope.array_elements = true;
    analyse_in(&scope, var, false, 0, &mut BTreeSet::new()).ok()
}

/// The sections several variables have in the same statements of one function, sharing
/// what does not depend on the variable (the statements' nodes, loops, counters and local
/// definitions): [`accessed_section`] for each, at the cost of one setup.
pub struct SectionsIn<'a> {
    scope: Scope<'a>,
}

impl<'a> SectionsIn<'a> {
    pub fn new(module: &'a Module, func: FuncId, cfg: &'a Cfg, stmts: &[StmtId]) -> Self {
        SectionsIn {
            scope: Scope::new(module, func, cfg, stmts),
        }
    }

    /// [`accessed_section`] of `var` in these statements.
    pub fn accessed(&self, var: VarId) -> Option<Section> {
        analyse_in(&self.scope, var, false, 0, &mut BTreeSet::new()).ok()
    }

    /// The section of each access of `var`'s data in these statements (what
    /// [`Self::accessed`] joins into one), or None when one cannot be bounded or nothing is
    /// accessed.
    pub fn accessed_parts(&self, var: VarId) -> Option<Vec<Section>> {
        let parts = parts_in(&self.scope, var, false, 0, &mut BTreeSet::new()).ok()?;
        (!parts.is_empty()).then(|| parts.into_iter().map(|(s, _)| s).collect())
    }
}

/// Whether two sections certainly share no element: one ends at or before the other starts
/// by a constant (`a[0:1]` and `a[1:n-2]`).
pub fn disjoint(a: &Section, b: &Section) -> bool {
    let before = |x: &Section, y: &Section| y.lower.const_diff(&x.end()).is_some_and(|d| d >= 0);
    before(a, b) || before(b, a)
}

/// What the analysis of any variable in the same statements reads: computed once per
/// statements ([`SectionsIn`]).
struct Scope<'a> {
    module: &'a Module,
    f: &'a Function,
    cfg: &'a Cfg,
    spans: Vec<Span>,
    /// The CFG nodes within the statements, with their loop.
    nodes: Vec<(Option<LoopId>, &'a Node)>,
    /// Per node of [`Self::nodes`]: every variable its expressions name (sorted). A node
    /// naming neither the variable nor one of its aliases holds no access of its data.
    names: Vec<Vec<VarId>>,
    /// The accesses of [`Self::nodes`] that write (not as a member call's object), by node.
    writes: Vec<(usize, &'a Access)>,
    loop_inside: IndexVec<LoopId, bool>,
    ifs: Vec<(Span, ExprId, bool)>,
    while_ivs: BTreeMap<LoopId, WhileIv>,
    defs: BTreeMap<VarId, Option<Vec<ExprId>>>,
    /// Variables assigned, stepped or whose address is taken anywhere in the function.
    changed: BTreeSet<VarId>,
    /// Per variable, its entries in [`Self::writes`] ([`Scope::new`] only).
    writes_of: BTreeMap<VarId, Vec<usize>>,
    /// Per entry of [`Self::writes`]: whether it is the init or step of a loop counting
    /// the variable ([`Analysis::header_write`]).
    header: Vec<bool>,
    /// Variables [`Self::writes`] write, and those it writes other than by a loop header.
    written: BTreeSet<VarId>,
    stray: BTreeSet<VarId>,
    /// A fixed-size array's accesses give their elements' section (for a clause's section
    /// of it), not the whole array.
    array_elements: bool,
    /// The arrays [`Analysis::find_offsets`] finds before it leaves out the variable and its
    /// aliases, which is all that depends on the variable: found once per naming of macros
    /// (index 1 when named), on the first variable that needs them.
    neighbours: [std::cell::OnceCell<Vec<VarId>>; 2],
}

impl<'a> Scope<'a> {
    fn new(module: &'a Module, func: FuncId, cfg: &'a Cfg, stmts: &[StmtId]) -> Scope<'a> {
        let mut scope = Scope::bare(module, func, cfg, stmts);
        scope.names = node_names(scope.f, &scope.nodes);
        // The counters and definitions do not depend on the variable: found once, by an
        // analysis of no variable in particular.
        let mut a = Analysis::new(&scope, VarId(0), false, 0);
        a.find_while_ivs();
        a.find_local_defs();
        let mut writes_of: BTreeMap<VarId, Vec<usize>> = BTreeMap::new();
        let mut header = Vec::with_capacity(scope.writes.len());
        let (mut written, mut stray) = (BTreeSet::new(), BTreeSet::new());
        for (w, &(i, acc)) in scope.writes.iter().enumerate() {
            let Root::Var(x) = acc.root else { continue };
            let h = a.header_write(scope.nodes[i].1, x);
            header.push(h);
            writes_of.entry(x).or_default().push(w);
            written.insert(x);
            if !h {
                stray.insert(x);
            }
        }
        let (while_ivs, defs) = (a.while_ivs, a.defs);
        scope.while_ivs = while_ivs;
        scope.defs = defs;
        scope.writes_of = writes_of;
        scope.header = header;
        scope.written = written;
        scope.stray = stray;
        scope
    }

    /// The statements' nodes, writes and loops; no names, counters or definitions.
    fn bare(module: &'a Module, func: FuncId, cfg: &'a Cfg, stmts: &[StmtId]) -> Scope<'a> {
        let f = module.function(func);
        let spans: Vec<Span> = stmts.iter().map(|s| f.stmt(*s).span).collect();
        let inside = |sp: Span| spans.iter().any(|k| k.start <= sp.start && sp.end <= k.end);
        let within = |s: StmtId| inside(f.stmt(s).span);
        let nodes: Vec<(Option<LoopId>, &Node)> = cfg
            .nodes()
            .filter(|(_, n)| within(n.stmt))
            .map(|(b, n)| (cfg.block(b).loop_id, n))
            .collect();
        let writes = nodes
            .iter()
            .enumerate()
            .flat_map(|(i, (_, n))| n.accesses.iter().map(move |a| (i, a)))
            .filter(|(_, acc)| {
                // A member call's object (`v.size()`) is not taken as written.
                let receiver = matches!(acc.escape, Some(Escape::CallArg { index: None, .. }));
                matches!(acc.root, Root::Var(_)) && acc.kind.writes() && !receiver
            })
            .collect();
        let loop_inside: IndexVec<LoopId, bool> =
            cfg.loops.iter().map(|l| within(l.stmt)).collect();
        Scope {
            module,
            f,
            cfg,
            spans,
            nodes,
            names: Vec::new(),
            writes,
            loop_inside,
            ifs: ifs_of(f),
            while_ivs: BTreeMap::new(),
            defs: BTreeMap::new(),
            changed: changed_anywhere(f),
            writes_of: BTreeMap::new(),
            header: Vec::new(),
            written: BTreeSet::new(),
            stray: BTreeSet::new(),
            array_elements: false,
            neighbours: Default::default(),
        }
    }
}

/// Per node: every variable its expressions name (sorted).
fn node_names(f: &Function, nodes: &[(Option<LoopId>, &Node)]) -> Vec<Vec<VarId>> {
    nodes
        .iter()
        .map(|(_, n)| {
            let mut out = Vec::new();
            let mut stack: Vec<ExprId> = n.exprs.clone();
            while let Some(e) = stack.pop() {
                let kind = &f.expr(e).kind;
                if let ExprKind::Var(v) = kind {
                    out.push(*v);
                }
                stack.extend(children(kind));
            }
            out.sort();
            out.dedup();
            out
        })
        .collect()
}

/// Variables assigned, stepped or whose address is taken anywhere in `f`.
fn changed_anywhere(f: &Function) -> BTreeSet<VarId> {
    let strip = |mut e: ExprId| {
        while let ExprKind::Cast(x) = f.expr(e).kind {
            e = x;
        }
        e
    };
    let mut changed: BTreeSet<VarId> = BTreeSet::new();
    for e in &f.exprs {
        let target = match e.kind {
            ExprKind::Assign(_, l, _) => l,
            ExprKind::Unary(op, x) if op.is_increment() || op == UnaryOp::AddrOf => x,
            _ => continue,
        };
        if let ExprKind::Var(v) = f.expr(strip(target)).kind {
            changed.insert(v);
        }
    }
    changed
}

/// The section of `var` in the statements of `scope`.
fn analyse_in(
    scope: &Scope<'_>,
    var: VarId,
    named: bool,
    depth: usize,
    monotone: &mut BTreeSet<VarId>,
) -> Result<Section, Unbounded> {
    let (module, f) = (scope.module, scope.f);
    let mut out: Option<Section> = None;
    for (s, expr) in parts_in(scope, var, named, depth, monotone)? {
        out = Some(match out {
            None => s,
            Some(o) => o.union_known(&s, &module.macros).ok_or_else(|| {
                Unbounded::at(
                    f,
                    module,
                    expr,
                    format!("its section `{s}` and the section `{o}` of other accesses cannot be ordered"),
                )
            })?,
        });
    }
    // An element before the first (`phi[x - 1]` for `x = 0`) is an access the program guards
    // (`if (x > 0)`), which the bounds above do not read: the data starts at element 0.
    let out = out.map(|mut s| {
        if let Some(lo) = s.lower.as_const().filter(|lo| *lo < 0) {
            s.length = s.length.add(&Poly::constant(lo));
            s.lower = Poly::zero();
        }
        s
    });
    out.ok_or_else(nothing)
}

fn nothing() -> Unbounded {
    Unbounded {
        span: None,
        text: String::new(),
        why: "the statements do not access it".into(),
    }
}

/// The section of each access of `var`'s data in the scope's statements, with the access
/// (a fixed-size array gives itself whole, once, at its first access); what
/// [`analyse_in`] joins. Empty when nothing is accessed.
fn parts_in(
    scope: &Scope<'_>,
    var: VarId,
    named: bool,
    depth: usize,
    monotone: &mut BTreeSet<VarId>,
) -> Result<Vec<(Section, ExprId)>, Unbounded> {
    let (module, f) = (scope.module, scope.f);
    match &module.var(var).ty.referent().kind {
        TypeKind::Array { len: Some(_), .. } if scope.array_elements => {}
        TypeKind::Array { len: Some(len), .. } => {
            let first = scope
                .nodes
                .iter()
                .find_map(|(_, n)| n.accesses.iter().find(|a| a.root == Root::Var(var)));
            let len = i64::try_from(*len).map_err(|_| nothing())?;
            return Ok(first
                .map(|a| (Section::new(Poly::zero(), Poly::constant(len)), a.expr))
                .into_iter()
                .collect());
        }
        TypeKind::Pointer(_) | TypeKind::Array { len: None, .. } => {}
        _ => return Ok(Vec::new()),
    }
    let mut a = Analysis::new(scope, var, named, depth);
    a.while_ivs = scope.while_ivs.clone();
    a.defs = scope.defs.clone();
    a.find_aliases(&scope.changed);
    if depth == 0 {
        let found = scope.neighbours[usize::from(named)].get_or_init(|| {
            // No variable: `find_offsets` keeps every array it finds.
            let mut any = Analysis::new(scope, NO_VAR, named, depth);
            any.while_ivs = scope.while_ivs.clone();
            any.defs = scope.defs.clone();
            any.find_offsets();
            any.offsets.into_iter().collect()
        });
        a.offsets = found
            .iter()
            .filter(|x| **x != var && !a.aliases.contains_key(x))
            .copied()
            .collect();
    }
    // Other variables' writes are the same for every variable; `var`'s own are either
    // element writes or its passing to a callee whose section of it is followed.
    a.written = scope.written.clone();
    a.stray = scope.stray.clone();
    a.written.remove(&var);
    a.stray.remove(&var);
    for &w in scope.writes_of.get(&var).map(Vec::as_slice).unwrap_or(&[]) {
        let acc = scope.writes[w].1;
        // Passed to a function whose section of it omplens reads (`grad(phi, x)`): the
        // call is scanned below like the accesses it makes.
        let followed = acc.path.is_empty()
            && match &acc.escape {
                Some(Escape::CallArg {
                    callee: Some(c),
                    index: Some(i),
                }) => a.callee(*c, *i).is_some(),
                _ => false,
            };
        if acc.path.is_empty() && !followed {
            let name = &module.var(var).name;
            let why = match &acc.escape {
                Some(Escape::CallArg { callee, .. }) => format!(
                    "`{name}` is passed to {} here, which may use any part of its data",
                    callee.map_or("a function".to_string(), |c| format!(
                        "`{}`",
                        module.function(c).name
                    ))
                ),
                Some(Escape::AddressTaken) => format!("the address of `{name}` is taken here"),
                None => format!("`{name}` itself is assigned in the kernels"),
            };
            return Err(Unbounded::at(f, module, acc.expr, why));
        }
        if followed {
            continue;
        }
        a.written.insert(var);
        if !scope.header[w] {
            a.stray.insert(var);
        }
    }
    let mut records: Vec<(Record, Option<LoopId>)> = Vec::new();
    for ((lid, n), names) in scope.nodes.iter().zip(&scope.names) {
        // Only the variable and its aliases lead to its data.
        let named_here = names.iter().any(|v| *v == var || a.aliases.contains_key(v));
        if !named_here {
            continue;
        }
        let mut found = Vec::new();
        for &e in &n.exprs {
            if a.scan(e, &mut found, 0).is_none() {
                return Err(a.why.take().unwrap_or_else(|| {
                    Unbounded::at(f, module, e, "omplens cannot follow this use")
                }));
            }
        }
        records.extend(found.into_iter().map(|r| (r, *lid)));
    }
    let mut out = Vec::new();
    for (r, lid) in &records {
        let Some(s) = a.section(r, *lid) else {
            return Err(a.why.take().unwrap_or_else(|| {
                Unbounded::at(f, module, r.expr, "omplens cannot bound its index")
            }));
        };
        out.push((s, r.expr));
    }
    monotone.extend(std::mem::take(&mut a.monotone));
    Ok(out)
}

/// A variable no module has, for an analysis of no variable in particular.
const NO_VAR: VarId = VarId(u32::MAX);

/// One element access of the variable: its index and the access's span.
#[derive(Clone)]
struct Record {
    index: Poly,
    deps: Deps,
    expr: ExprId,
    /// The access's index is `index % m` (`g[(i + n - 1) % n]`): the divisor `m` with the
    /// variables it reads.
    modulo: Option<(Poly, Deps)>,
}

/// A `while` or `do` loop's counter: `v = init;` just before the loop, `v += step;` once at
/// the top level of its body and nowhere else, and `v` compared in the condition.
#[derive(Clone, Debug)]
struct WhileIv {
    var: VarId,
    init: ExprId,
    init_stmt: StmtId,
    step: i64,
    step_stmt: StmtId,
    cond: ExprId,
    /// A `do` loop: the body runs once with the first value even when the condition fails.
    is_do: bool,
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
    /// The statements' spans.
    spans: &'a [Span],
    /// Per loop: whether it lies inside the statements.
    loop_inside: &'a IndexVec<LoopId, bool>,
    /// Counters of the `while` and `do` loops inside the statements.
    while_ivs: BTreeMap<LoopId, WhileIv>,
    /// Locals declared inside the statements and set only by plain assignments (or their
    /// initialiser): the expressions they take their values from. None: set otherwise.
    defs: BTreeMap<VarId, Option<Vec<ExprId>>>,
    /// The first reason an access could not be bounded.
    why: Option<Unbounded>,
    /// Sections that must be accessed in full (not a cover of what may be): loop bounds with
    /// alternatives (`min`, `max`, several conjuncts) are not taken.
    must: bool,
    /// Macro uses keep their names in the polynomials.
    named: bool,
    /// Calls followed to get here (see [`callee_section`]).
    call_depth: usize,
    /// Each callee's section of a parameter, once ([`Self::callee`]).
    callees: HashMap<(FuncId, usize), Option<Section>>,
    /// The function's `if` statements: the span of the branch taken when the condition
    /// holds, and the condition ([`Self::guarded`]).
    ifs: &'a [(Span, ExprId, bool)],
    /// The values of the macros the function uses ([`launch::macro_uses`]), read once.
    macro_uses: std::cell::OnceCell<crate::ir::macros::Values>,
    /// Pointers declared inside the statements as `var` plus offsets and never changed
    /// (`const int *row = cols + start[r];`): their initialisers.
    aliases: BTreeMap<VarId, ExprId>,
    /// Elements at indices the bounds made (`start[n]` from `start[r + 1]`): the variable
    /// and the index.
    made_elements: BTreeMap<String, (VarId, Poly)>,
    /// Arrays taken as non-decreasing to bound an index they give (the offsets of a
    /// compressed list: `col[start[r] + k]` for `k < start[r + 1] - start[r]`).
    monotone: BTreeSet<VarId>,
    /// Arrays some loop of the statements runs between two neighbours of (`for (k =
    /// start[r]; k < start[r + 1]; k++)`, or `k < start[r + 1] - start[r]` from 0): the row
    /// offsets of a compressed list, the only arrays [`Self::monotone`] may take.
    offsets: BTreeSet<VarId>,
}

/// The `if` statements of `f` as [`Analysis::ifs`] lists them.
fn ifs_of(f: &Function) -> Vec<(Span, ExprId, bool)> {
    let mut out: Vec<(Span, ExprId, bool)> = f
        .stmts
        .iter()
        .flat_map(|st| match &st.kind {
            StmtKind::If {
                cond, then, els, ..
            } => {
                let mut v = vec![(f.stmt(*then).span, *cond, false)];
                v.extend(els.map(|e| (f.stmt(e).span, *cond, true)));
                v
            }
            _ => Vec::new(),
        })
        .collect();
    // The arms of `c ? x : y` are guarded the same way.
    for e in &f.exprs {
        if let ExprKind::Cond(c, t, x) = e.kind {
            out.push((f.expr(t).span, c, false));
            out.push((f.expr(x).span, c, true));
        }
    }
    out
}

const MAX_DEPTH: usize = 500;
/// Local definitions followed through (`idx` set from `row`, set from `i * n`).
const MAX_DEFS_DEPTH: usize = 4;
/// Combinations of definitions of one index.
const MAX_CANDIDATES: usize = 16;
/// Terms of an index whose extremes over its loops are worked out: bounding one costs its
/// terms times the loops around it, on each of the three analyses that ask (coverage, the
/// rules, the kernels' sections). A product of sums expanded to hundreds of terms is no index
/// a program writes (the largest in the HeCBench and OMPDart sources has 40).
const MAX_INDEX_TERMS: usize = 128;

impl<'a> Analysis<'a> {
    fn new(scope: &'a Scope<'_>, var: VarId, named: bool, depth: usize) -> Analysis<'a> {
        let (module, f) = (scope.module, scope.f);
        Analysis {
            module,
            f,
            cfg: scope.cfg,
            var,
            polys: if named {
                ExprPolys::naming_macros(module, f)
            } else {
                ExprPolys::new(module, f)
            },
            written: BTreeSet::new(),
            stray: BTreeSet::new(),
            spans: &scope.spans,
            loop_inside: &scope.loop_inside,
            while_ivs: BTreeMap::new(),
            defs: BTreeMap::new(),
            why: None,
            must: false,
            named,
            call_depth: depth,
            callees: HashMap::new(),
            ifs: &scope.ifs,
            macro_uses: std::cell::OnceCell::new(),
            aliases: BTreeMap::new(),
            made_elements: BTreeMap::new(),
            monotone: BTreeSet::new(),
            offsets: BTreeSet::new(),
        }
    }

    /// Whether `sp` lies within the statements.
    fn inside(&self, sp: Span) -> bool {
        self.spans
            .iter()
            .any(|k| k.start <= sp.start && sp.end <= k.end)
    }

    /// Whether `n` is the init or step of a loop inside the statements whose induction
    /// variable is `x`.
    fn header_write(&self, n: &Node, x: VarId) -> bool {
        let counter = self
            .while_ivs
            .values()
            .any(|w| w.var == x && (n.stmt == w.init_stmt || n.stmt == w.step_stmt));
        counter
            || self.cfg.loops.iter_enumerated().any(|(i, l)| {
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

    /// When `e` is `var` plus or minus offsets (`a`, `a + k`, `(a + i) - j`, `&a[k]`, or a
    /// pointer the statements declare as one of these, [`Analysis::aliases`]), the offsets
    /// with their signs.
    fn based(&self, e: ExprId, depth: usize) -> Option<Vec<(ExprId, bool)>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let e = self.strip(e);
        match self.f.expr(e).kind {
            ExprKind::Var(v) if v == self.var => Some(Vec::new()),
            ExprKind::Var(v) => {
                let init = *self.aliases.get(&v)?;
                self.based(init, depth + 1)
            }
            // `&a[k]` is `a + k`.
            ExprKind::Unary(UnaryOp::AddrOf, x) => match self.f.expr(self.strip(x)).kind {
                ExprKind::Subscript(b, i) => {
                    let mut o = self.based(b, depth + 1)?;
                    o.push((i, true));
                    Some(o)
                }
                _ => None,
            },
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
        at: ExprId,
        offsets: &[(ExprId, bool)],
        index: Option<ExprId>,
        out: &mut Vec<Record>,
        depth: usize,
    ) -> Option<()> {
        let mut deps = Deps::new();
        if let (Some(i), []) = (index, offsets) {
            if let ExprKind::Binary(BinaryOp::Rem, x, m) = self.f.expr(self.strip(i)).kind {
                // `g[x % m]`: bounded by `m`, see `Analysis::modulo_section`.
                self.scan(i, out, depth)?;
                let (Some((p, d)), Some(divisor)) =
                    (self.polys.poly_with_deps(x), self.polys.poly_with_deps(m))
                else {
                    return self.defeat(
                        at,
                        "its index is not an integer expression of the program's variables",
                    );
                };
                out.push(Record {
                    index: p,
                    deps: d,
                    expr: at,
                    modulo: Some(divisor),
                });
                return Some(());
            }
        }
        let mut p = match index {
            Some(i) => {
                self.scan(i, out, depth)?;
                let Some((p, d)) = self.polys.poly_with_deps(i) else {
                    return self.defeat(
                        at,
                        "its index is not an integer expression of the program's variables",
                    );
                };
                merge(&mut deps, d);
                p
            }
            None => Poly::zero(),
        };
        for &(x, plus) in offsets {
            self.scan(x, out, depth)?;
            let Some((q, d)) = self.polys.poly_with_deps(x) else {
                return self.defeat(
                    at,
                    "its offset is not an integer expression of the program's variables",
                );
            };
            merge(&mut deps, d);
            p = if plus { p.add(&q) } else { p.sub(&q) };
        }
        out.push(Record {
            index: p,
            deps,
            expr: at,
            modulo: None,
        });
        Some(())
    }

    /// [`callee_section`] of `c`'s parameter `index`, computed once per analysis.
    fn callee(&mut self, c: FuncId, index: usize) -> Option<Section> {
        let (module, named, depth) = (self.module, self.named, self.call_depth);
        self.callees
            .entry((c, index))
            .or_insert_with(|| callee_section(module, c, index, named, depth))
            .clone()
    }

    /// The elements callee `c` accesses through its parameter `index`, given `var` plus
    /// `offsets` there (`grad(phi, x)` reading `g[x - 1]` and `g[x]`): the first and last
    /// element of the callee's section, with its parameters replaced by the call's arguments.
    #[allow(clippy::too_many_arguments)]
    fn through_call(
        &mut self,
        at: ExprId,
        c: FuncId,
        index: usize,
        args: &[ExprId],
        offsets: &[(ExprId, bool)],
        out: &mut Vec<Record>,
        depth: usize,
    ) -> Option<()> {
        let callee = self.module.function(c);
        let name = &self.module.var(self.var).name;
        let Some(mut s) = self.callee(c, index) else {
            return self.defeat(
                at,
                format!(
                    "`{name}` is passed to `{}` here, which may use any part of its data",
                    callee.name
                ),
            );
        };
        let mut deps = Deps::new();
        for (k, p) in callee.params.iter().enumerate() {
            let pname = &self.module.var(*p).name;
            let uses = [&s.lower, &s.length]
                .iter()
                .any(|q| q.contains_atom(pname) || q.mentions_within_atoms(pname));
            if !uses {
                continue;
            }
            let Some((by, d)) = args.get(k).and_then(|a| self.polys.poly_with_deps(*a)) else {
                return self.defeat(
                    at,
                    format!(
                        "`{}` reads its argument `{pname}`, which is not an integer expression of the program's variables",
                        callee.name
                    ),
                );
            };
            merge(&mut deps, d);
            // Compound atoms get the caller's names too; what they read is not known here,
            // so [`Self::culprit`] still refuses them.
            s.lower = s.lower.subst_everywhere(pname, &by);
            s.length = s.length.subst_everywhere(pname, &by);
        }
        let mut base = Poly::zero();
        for &(x, plus) in offsets {
            self.scan(x, out, depth)?;
            let (q, d) = self.polys.poly_with_deps(x)?;
            merge(&mut deps, d);
            base = if plus { base.add(&q) } else { base.sub(&q) };
        }
        let first = base.add(&s.lower);
        let last = first.add(&s.length).sub(&Poly::constant(1));
        for index in [first, last] {
            out.push(Record {
                index,
                deps: deps.clone(),
                expr: at,
                modulo: None,
            });
        }
        Some(())
    }

    /// Records why the access at `span` cannot be bounded (the first reason wins).
    fn defeat<T>(&mut self, at: ExprId, why: impl Into<String>) -> Option<T> {
        if self.why.is_none() {
            self.why = Some(Unbounded::at(self.f, self.module, at, why));
        }
        None
    }

    /// Collects the index of every element access of `var` in `e`; None when `var` is used
    /// in a way that is not an element access or a test (`a != NULL`).
    fn scan(&mut self, e: ExprId, out: &mut Vec<Record>, depth: usize) -> Option<()> {
        crate::budget::tick("array sections");
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        if self.aliases.values().any(|i| *i == e) {
            // An alias's initialiser: its uses are the accesses; its offsets may read data.
            for (x, _) in self.based(e, 0)? {
                self.scan(x, out, d)?;
            }
            return Some(());
        }
        match &self.f.expr(e).kind {
            ExprKind::Subscript(b, i) => match self.based(*b, 0) {
                Some(offs) => self.element(e, &offs, Some(*i), out, d)?,
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
                Some(offs) => self.element(e, &offs, None, out, d)?,
                None => self.scan(*x, out, d)?,
            },
            ExprKind::Unary(UnaryOp::AddrOf, x) => {
                if self.lvalue_based(*x, 0) {
                    return self.defeat(e, "the address of its data is taken here");
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
            ExprKind::Call {
                callee: Callee::Direct(c),
                args,
                ..
            } if args.iter().any(|a| self.based(*a, 0).is_some()) => {
                let (c, args) = (*c, args.clone());
                for (i, &arg) in args.iter().enumerate() {
                    match self.based(arg, 0) {
                        Some(offs) => self.through_call(e, c, i, &args, &offs, out, d)?,
                        None => self.scan(arg, out, d)?,
                    }
                }
            }
            ExprKind::Var(v) if *v == self.var || self.aliases.contains_key(v) => {
                let name = &self.module.var(*v).name;
                return self.defeat(
                    e,
                    format!(
                        "`{name}` is used here other than by indexing (passed, copied or offset)"
                    ),
                );
            }
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
    fn check_atoms(&mut self, p: &Poly, deps: &Deps, ivs: &[VarId]) -> Option<()> {
        self.culprit(p, deps, ivs).is_none().then_some(())
    }

    /// Why [`Self::check_atoms`] refuses `p`: its first atom that varies in a way omplens
    /// cannot bound, said in words.
    fn culprit(&mut self, p: &Poly, deps: &Deps, ivs: &[VarId]) -> Option<String> {
        for atom in p.atoms() {
            match self.varying_element(atom, deps, ivs) {
                Some(Ok(())) => continue,
                Some(Err(why)) => return Some(why),
                None => {}
            }
            let Some(deps) = deps.get(atom) else {
                return Some(format!("`{atom}` is not a value omplens can follow"));
            };
            for d in deps {
                let name = &self.module.var(*d).name;
                if ivs.contains(d) && name != atom {
                    return Some(format!(
                        "`{atom}` depends on the loop counter `{name}` in a way omplens cannot bound"
                    ));
                }
                if !ivs.contains(d) && self.written.contains(d) {
                    return Some(format!("`{atom}` changes inside the kernels"));
                }
            }
        }
        None
    }

    /// The variable and index of `atom` when it is an element of an array the statements
    /// neither write nor reassign (`start[r + 1]`), with the index's variables. `vars`: the
    /// variables the atom reads where it is used (its entry in the [`Deps`] at hand), which
    /// tell apart two expressions of one text.
    fn element_atom(
        &mut self,
        atom: &str,
        vars: Option<&BTreeSet<VarId>>,
    ) -> Option<(VarId, Poly, Deps)> {
        // Only in the function analysed itself: a callee's element keeps its own names.
        if self.call_depth != 0 {
            return None;
        }
        let (a, index, deps) = match self.made_elements.get(atom) {
            Some((a, q)) => {
                let deps = q
                    .atoms()
                    .into_iter()
                    .filter_map(|x| Some((x.to_string(), self.polys.deps.get(x)?.clone())))
                    .collect();
                (*a, q.clone(), deps)
            }
            None => {
                let list = self.polys.elements.get(atom)?.clone();
                list.into_iter().find_map(|(a, i)| {
                    let (q, d) = self.polys.poly_with_deps(i)?;
                    let read: BTreeSet<VarId> = d.values().flatten().copied().chain([a]).collect();
                    vars.is_none_or(|vs| read.is_subset(vs))
                        .then_some((a, q, d))
                })?
            }
        };
        (a != self.var && !self.written.contains(&a) && !self.aliases.contains_key(&a))
            .then_some((a, index, deps))
    }

    /// Whether a leaf of `b` holds an element whose index names the counter `name`.
    fn element_mentions(&mut self, b: &Bound, name: &str, deps: &Deps) -> bool {
        let atoms = std::cell::RefCell::new(Vec::new());
        b.any_leaf(&|p: &Poly| {
            let mut a = atoms.borrow_mut();
            a.extend(p.atoms().into_iter().map(str::to_string));
            false
        });
        atoms.into_inner().iter().any(|a| {
            let vars = deps.get(a).cloned();
            self.element_atom(a, vars.as_ref())
                .is_some_and(|(_, q, _)| q.contains_atom(name))
        })
    }

    /// For an element `atom` whose index varies with a loop counter of `ivs` (`start[r]`):
    /// Ok when the index itself is one omplens can bound (the element is then bounded by
    /// taking the array as non-decreasing, [`Self::elements_over`]), Err with the reason when
    /// not; None for other atoms.
    fn varying_element(
        &mut self,
        atom: &str,
        deps: &Deps,
        ivs: &[VarId],
    ) -> Option<Result<(), String>> {
        let vars = deps.get(atom).cloned();
        let (a, index, deps) = self.element_atom(atom, vars.as_ref())?;
        if !self.offsets.contains(&a) {
            return None;
        }
        let varies = deps.values().flatten().any(|v| ivs.contains(v));
        if !varies {
            return None;
        }
        Some(match self.culprit(&index, &deps, ivs) {
            None => Ok(()),
            Some(why) => Err(why),
        })
    }

    /// `p` with each element whose index varies with the counter `name` (`start[r + 1]`)
    /// replaced by the element at the end of the counter's range `[first, last]` that
    /// minimises (`want_min`) or maximises `p`, taking the array as non-decreasing (the
    /// offsets of a compressed list; recorded in [`Self::monotone`]). None when such an
    /// element is multiplied by anything but a constant, or its index does not resolve to one
    /// end.
    fn elements_over(
        &mut self,
        p: &Poly,
        name: &str,
        (first, last): (&Bound, &Bound),
        want_min: bool,
        names: &[String],
        deps: &Deps,
    ) -> Option<Poly> {
        let terms: Vec<(Vec<Atom>, i64)> = p.terms().map(|(k, c)| (k.to_vec(), c)).collect();
        // Terms without such an element stay as written (factor order included).
        let mut out = p.clone();
        for (key, c) in terms {
            let mut varying = None;
            for a in &key {
                let vars = deps.get(&**a).cloned();
                if let Some((v, index, _)) = self.element_atom(a, vars.as_ref()) {
                    if index.contains_atom(name) && self.offsets.contains(&v) {
                        varying = Some((v, index));
                    }
                }
            }
            let Some((v, index)) = varying else {
                continue;
            };
            if key.len() != 1 {
                return None;
            }
            out = out.sub(&Poly::atom(&key[0]).scale(c));
            // A larger element for a larger index: the index's end that gives the wanted end.
            let end = extreme(&index, name, first, last, want_min == (c > 0), names)?;
            let Bound::Leaf(q) = end else { return None };
            let text = format!("{}[{q}]", self.module.var(v).name);
            let mut vars = self.polys.vars_of(&q);
            vars.insert(v);
            let atom = self.polys.register_atom(&text, vars);
            self.made_elements.insert(text, (v, q));
            self.monotone.insert(v);
            out.add_assign(&atom.scale(c));
        }
        Some(out)
    }

    /// The counter of loop `l`: a `for` loop's induction variable or a `while`/`do` counter.
    fn counter(&self, l: LoopId) -> Option<VarId> {
        self.cfg.loops[l]
            .induction
            .or_else(|| self.while_ivs.get(&l).map(|w| w.var))
    }

    /// The section of one access, over the loops around it (loop `lid` and its parents inside
    /// the statements). Locals set inside the statements are replaced by what they are set
    /// to (each arm of a conditional definition), and the candidates' sections are joined.
    fn section(&mut self, r: &Record, lid: Option<LoopId>) -> Option<Section> {
        if let Some(divisor) = &r.modulo {
            return self.modulo_section(r, divisor, lid);
        }
        let chain: Vec<(VarId, LoopId)> = match lid {
            Some(l) => self
                .cfg
                .loop_chain(l)
                .filter(|l| self.loop_inside[*l])
                .filter_map(|l| self.counter(l).map(|v| (v, l)))
                .collect(),
            None => Vec::new(),
        };
        let ivs: Vec<VarId> = chain.iter().map(|c| c.0).collect();
        if ivs.iter().collect::<BTreeSet<_>>().len() != ivs.len() {
            return self.defeat(r.expr, "two loops around it share a counter");
        }
        let candidates = self.candidates(&r.index, &r.deps, &ivs, 0, r.expr)?;
        let mut out: Option<Section> = None;
        for (idx, deps) in candidates {
            let s = self.candidate_section(&idx, &deps, &chain, r)?;
            out = Some(match out {
                None => s,
                Some(o) => match o.union(&s) {
                    Some(u) => u,
                    None => {
                        return self.defeat(
                            r.expr,
                            format!(
                            "its index takes values in `{o}` and in `{s}`, which cannot be ordered"
                        ),
                        )
                    }
                },
            });
        }
        if out.is_none() {
            return self.defeat(r.expr, "its index uses a local that is never set");
        }
        out
    }

    /// The elements of `g[x % m]`: those of `g[x]` when `x` stays below `m` by a constant,
    /// else `0` to `m - 1`. `x` must not reach a constant below zero (`(i - 1) % n` is `-1`
    /// at `i == 0` in C); an `x` bounded below by a size (`(i + n - 1) % n`) counts as not
    /// negative, as an index does elsewhere ([`Section::union`]). `m` must not change in
    /// the statements, like any other bound.
    fn modulo_section(
        &mut self,
        r: &Record,
        divisor: &(Poly, Deps),
        lid: Option<LoopId>,
    ) -> Option<Section> {
        let dividend = self.section(
            &Record {
                modulo: None,
                ..r.clone()
            },
            lid,
        )?;
        let known = &self.module.macros;
        let value = |p: &Poly| super::constants::substitute(p, known).as_const();
        if let Some(low) = value(&dividend.lower).filter(|l| *l < 0) {
            return self.defeat(
                r.expr,
                format!("its index is a remainder whose left operand reaches {low}, so the remainder can be negative"),
            );
        }
        let (m, m_deps) = divisor;
        let last = self.section(
            &Record {
                index: m.sub(&Poly::constant(1)),
                deps: m_deps.clone(),
                expr: r.expr,
                modulo: None,
            },
            lid,
        )?;
        if value(&m.sub(&dividend.end())).is_some_and(|gap| gap >= 0) {
            return Some(dividend);
        }
        Some(Section::from_bounds(
            &Poly::zero(),
            &last.end().sub(&Poly::constant(1)),
        ))
    }

    /// The section of index `idx` over the loops of `chain` (innermost first).
    fn candidate_section(
        &mut self,
        idx: &Poly,
        deps: &Deps,
        chain: &[(VarId, LoopId)],
        r: &Record,
    ) -> Option<Section> {
        let span = r.expr;
        let ivs: Vec<VarId> = chain.iter().map(|c| c.0).collect();
        let names: Vec<String> = ivs
            .iter()
            .map(|v| self.module.var(*v).name.clone())
            .collect();
        if let Some(why) = self.culprit(idx, deps, &ivs) {
            return self.defeat(span, format!("in its index, {why}"));
        }
        let terms = idx.terms().count();
        if terms > MAX_INDEX_TERMS {
            return self.defeat(
                span,
                format!(
                    "its index expands to {terms} terms (omplens bounds indices of at most \
                     {MAX_INDEX_TERMS})"
                ),
            );
        }
        let (mut lo, mut hi) = (Bound::leaf(idx.clone()), Bound::leaf(idx.clone()));
        for (k, &(v, l)) in chain.iter().enumerate() {
            let name = &names[k];
            let mentions = |p: &Poly| p.contains_atom(name);
            if !lo.any_leaf(&mentions)
                && !hi.any_leaf(&mentions)
                && !self.element_mentions(&lo, name, deps)
                && !self.element_mentions(&hi, name, deps)
            {
                continue;
            }
            if self.stray.contains(&v) {
                return self.defeat(
                    span,
                    format!("the loop counter `{name}` also changes in the loop's body"),
                );
            }
            let Some((first, last)) = self.loop_range(l, v, &ivs[k + 1..]) else {
                return self.defeat(
                    span,
                    format!("omplens cannot read the bounds of the loop over `{name}`"),
                );
            };
            let (first, last) = self.guarded(v, span, first, last);
            let mut elements = |b: &Bound, want_min: bool| {
                b.flat_map(&mut |p| {
                    self.elements_over(p, name, (&first, &last), want_min, &names, deps)
                        .map(Bound::leaf)
                })
            };
            let (Some(l1), Some(h1)) = (elements(&lo, true), elements(&hi, false)) else {
                return self.defeat(
                    span,
                    format!("its index reads an element whose index varies with `{name}` in a way omplens cannot bound"),
                );
            };
            (lo, hi) = (l1, h1);
            let over = |b: &Bound, want_min: bool| {
                b.flat_map(&mut |p| extreme(p, name, &first, &last, want_min, &names))
            };
            let (Some(l2), Some(h2)) = (over(&lo, true), over(&hi, false)) else {
                // Not monotone one counter at a time (`i * j`): bound each term by the ranges.
                if let Some(s) = self.interval_section(idx, chain, &names) {
                    return Some(s);
                }
                return self.defeat(
                    span,
                    format!("its index is not monotone in `{name}` (or the bounds have too many candidates)"),
                );
            };
            (lo, hi) = (l2, h2);
        }
        (lo, hi) = self.over_launch(lo, hi, idx, &names, r)?;
        let known = &self.module.macros;
        let (Some(lo), Some(hi)) = (lo.resolve(true, known), hi.resolve(false, known)) else {
            return self.defeat(
                span,
                "its loop bounds have candidates omplens cannot order (a `min`/`max` of unrelated sizes, or a `do` loop's first value against its condition)",
            );
        };
        Some(Section::from_bounds(&lo, &hi))
    }

    /// The bounds `lo` and `hi` of index `idx` over every team and thread of the kernel's
    /// launch: each team or thread query in them (`omp_get_team_num()`, `omp_get_thread_num()
    /// % 16`) replaced by the end of its range that minimises or maximises the bound (see
    /// [`launch`]). A query whose range the clauses do not give stays, as does a bound not
    /// monotone in it.
    fn over_launch(
        &mut self,
        mut lo: Bound,
        mut hi: Bound,
        idx: &Poly,
        names: &[String],
        r: &Record,
    ) -> Option<(Bound, Bound)> {
        let span = r.expr;
        let queries: Vec<String> = idx
            .atoms()
            .into_iter()
            .filter(|a| a.starts_with("omp_get_"))
            .map(str::to_string)
            .collect();
        if queries.is_empty() {
            return Some((lo, hi));
        }
        let at = self.f.expr(span).span;
        // Macros of the file stay names in a section written in the program's terms; those
        // of headers are numbers there, as the kernels' own uses of them are.
        let headers = self
            .macro_uses
            .get_or_init(|| launch::macro_uses(self.f))
            .clone();
        let mut known = headers.clone();
        known.extend(self.module.macros.clone());
        let values = if self.named {
            let mut v = headers;
            v.retain(|k, _| !self.module.macros.contains_key(k));
            v
        } else {
            known.clone()
        };
        let Some(l) = launch::launch_at(self.module, self.f, at, &values, &known) else {
            return Some((lo, hi));
        };
        for q in &queries {
            let Some((first, last)) = launch::range(q, &l, &known) else {
                continue;
            };
            let (first, last) = (Bound::leaf(first), Bound::leaf(last));
            let over = |b: &Bound, want_min: bool| {
                b.flat_map(&mut |p| extreme(p, q, &first, &last, want_min, names))
            };
            let (Some(l2), Some(h2)) = (over(&lo, true), over(&hi, false)) else {
                return self.defeat(
                    span,
                    format!(
                        "its index is not monotone in `{q}` over the kernel's teams and threads"
                    ),
                );
            };
            (lo, hi) = (l2, h2);
        }
        // The launch may run more teams and threads than there are elements, which the
        // kernel's own test keeps in (`if (i < n) b[i]`): that test is a bound too, and the
        // first a resolution keeps when the two do not compare (it is what the program meant).
        let (glo, ghi) = self.guard_bounds(r);
        if let Some(g) = glo {
            lo = Bound::Tight(vec![Bound::leaf(g), lo]);
        }
        if let Some(g) = ghi {
            hi = Bound::Tight(vec![Bound::leaf(g), hi]);
        }
        Some((lo, hi))
    }

    /// The lowest and highest value of the index `r` as written (before its locals are
    /// replaced by their definitions) from the `if` conditions around the access on the
    /// locals it uses (`if (i < n) b[i + 1]`: `n`; `if (r < h && c < w) g[r * w + c]`:
    /// `h * w - 1`), where the rest of the index does not vary. A side is None unless every
    /// local has a test on that side.
    fn guard_bounds(&mut self, r: &Record) -> (Option<Poly>, Option<Poly>) {
        let locals: Vec<(String, VarId)> = r
            .index
            .atoms()
            .into_iter()
            .filter_map(|a| {
                let vs = r.deps.get(a)?;
                let v = *vs.iter().next()?;
                // Set once (its initialiser): a test on it holds at the access.
                let once = matches!(self.defs.get(&v), Some(Some(d)) if d.len() == 1);
                (vs.len() == 1 && self.module.var(v).name == a && once).then(|| (a.to_string(), v))
            })
            .collect();
        if locals.is_empty() {
            return (None, None);
        }
        let mut rest = r.index.clone();
        for (x, _) in &locals {
            rest = rest.subst(x, &Poly::zero());
        }
        if self.culprit(&rest, &r.deps, &[]).is_some() {
            return (None, None);
        }
        let names: Vec<String> = locals.iter().map(|(x, _)| x.clone()).collect();
        let (mut lo, mut hi) = (
            Some(Bound::leaf(r.index.clone())),
            Some(Bound::leaf(r.index.clone())),
        );
        for (x, v) in &locals {
            let (lows, highs) = self.guards(*v, r.expr);
            let (first, last) = (Bound::node(true, lows), Bound::node(true, highs));
            // The end of `x`'s range that gives the lowest (highest) index: `extreme` picks it
            // by the sign of `x`'s terms, and fails on a missing one.
            let over = |b: Option<Bound>, want_min: bool| -> Option<Bound> {
                let none = Bound::Tight(Vec::new());
                let (f, l) = (
                    first.as_ref().unwrap_or(&none),
                    last.as_ref().unwrap_or(&none),
                );
                b?.flat_map(&mut |p| extreme(p, x, f, l, want_min, &names))
            };
            (lo, hi) = (over(lo, true), over(hi, false));
        }
        let known = &self.module.macros;
        (
            lo.and_then(|b| b.resolve(true, known)),
            hi.and_then(|b| b.resolve(false, known)),
        )
    }

    /// The section of `idx` by interval arithmetic, for indices that are products of counters
    /// (`a[i * j]`): every counter of `chain` must range over `[lo, hi]` with bounds free of
    /// counters and `lo` non-negative (sizes are taken as non-negative, as everywhere here);
    /// each term is then at least the product of the low ends (at most, of the high ends) of
    /// its factors, with the coefficient's sign deciding which end. Sound, maybe loose.
    fn interval_section(
        &mut self,
        idx: &Poly,
        chain: &[(VarId, LoopId)],
        names: &[String],
    ) -> Option<Section> {
        // An element indexed by a counter (`start[r]`) is no constant of the ranges.
        if names.iter().any(|n| idx.mentions_within_atoms(n)) {
            return None;
        }
        let known = self.module.macros.clone();
        let mut ranges: BTreeMap<&str, (Poly, Poly)> = BTreeMap::new();
        for (k, &(v, l)) in chain.iter().enumerate() {
            if !idx.contains_atom(&names[k]) {
                continue;
            }
            if self.stray.contains(&v) {
                return None;
            }
            let (first, last) = self.loop_range(l, v, &[])?;
            let (lo, hi) = (first.resolve(true, &known)?, last.resolve(false, &known)?);
            let free = |p: &Poly| names.iter().all(|n| !p.contains_atom(n));
            if !free(&lo) || !free(&hi) || !lo.nonneg_coefficients() {
                return None;
            }
            ranges.insert(&names[k], (lo, hi));
        }
        let (mut low, mut high) = (Poly::zero(), Poly::zero());
        for (key, c) in idx.terms() {
            let (mut a, mut b) = (Poly::constant(c), Poly::constant(c));
            for atom in key {
                let (x, y) = match ranges.get(&**atom) {
                    Some((lo, hi)) => (lo.clone(), hi.clone()),
                    None => (Poly::shared_atom(atom), Poly::shared_atom(atom)),
                };
                a = a.mul(&x);
                b = b.mul(&y);
            }
            // A negative coefficient turns the product of the high ends into the lowest value.
            let (min, max) = if c >= 0 { (a, b) } else { (b, a) };
            low.add_assign(&min);
            high.add_assign(&max);
        }
        // A loose low end may fall below the data (`i * j - i`): only a provably
        // non-negative one is a section.
        low.nonneg_coefficients()
            .then(|| Section::from_bounds(&low, &high))
    }

    /// `idx` with each local set inside the statements replaced by the values it is set to:
    /// one polynomial per combination of definitions (a conditional one gives two).
    fn candidates(
        &mut self,
        idx: &Poly,
        deps: &Deps,
        ivs: &[VarId],
        depth: usize,
        span: ExprId,
    ) -> Option<Vec<(Poly, Deps)>> {
        let local = idx.atoms().into_iter().find_map(|a| {
            let vs = deps.get(a)?;
            let v = *vs.iter().next()?;
            (vs.len() == 1
                && self.module.var(v).name == a
                && !ivs.contains(&v)
                && self.defs.contains_key(&v))
            .then(|| (a.to_string(), v))
        });
        let Some((name, v)) = local else {
            return Some(vec![(idx.clone(), deps.clone())]);
        };
        if depth >= MAX_DEFS_DEPTH {
            return self.defeat(
                span,
                format!("its index goes through too many local definitions (`{name}`)"),
            );
        }
        let Some(Some(values)) = self.defs.get(&v).cloned() else {
            return self.defeat(
                span,
                format!("its index uses `{name}`, which is changed inside the kernels other than by assignment"),
            );
        };
        let mut out = Vec::new();
        for e in values {
            let Some(options) = self.value_candidates(e, 0) else {
                return self.defeat(
                    span,
                    format!("`{name}` is set to a value that is not an integer expression of the program's variables"),
                );
            };
            for (q, qd) in options {
                let p = idx.subst(&name, &q);
                let mut d = deps.clone();
                d.remove(&name);
                merge(&mut d, qd);
                out.extend(self.candidates(&p, &d, ivs, depth + 1, span)?);
                if out.len() > MAX_CANDIDATES {
                    return self.defeat(span, "its index has too many possible definitions");
                }
            }
        }
        Some(out)
    }

    /// The values of `e`: both arms of a conditional expression, else `e` itself.
    fn value_candidates(&mut self, e: ExprId, depth: usize) -> Option<Vec<(Poly, Deps)>> {
        let e = self.strip(e);
        if let ExprKind::Cond(_, t, f) = self.f.expr(e).kind {
            if depth < MAX_DEFS_DEPTH {
                let mut v = self.value_candidates(t, depth + 1)?;
                v.extend(self.value_candidates(f, depth + 1)?);
                return Some(v);
            }
        }
        Some(vec![self.polys.poly_with_deps(e)?])
    }

    /// The lowest and highest value of the counter `v` of loop `l` (a `for`, or a `while`/`do`
    /// with a known counter), whose bounds may use the counters `outer` of the loops around it.
    /// Each is a tree of candidates: `min`/`max` in the bounds and every conjunct of the
    /// condition give alternatives.
    /// The range `first..=last` of counter `v` narrowed by the `if` conditions the access
    /// `at` sits under (`if (x > 0 && x < n - 1) ... g[x - 1] ... g[x + 1]`): each comparison
    /// of `v` with a value that does not change in the statements is one more bound, and the
    /// tightest provable one is kept.
    fn guarded(&mut self, v: VarId, at: ExprId, first: Bound, last: Bound) -> (Bound, Bound) {
        let (mut lows, mut highs) = self.guards(v, at);
        lows.insert(0, first);
        highs.insert(0, last);
        let node = |b| Bound::node(true, b).expect("the loop's own bound");
        (node(lows), node(highs))
    }

    /// The lower and upper bounds on `v` that the `if` conditions around the access `at` give
    /// (see [`Self::guarded`]).
    fn guards(&mut self, v: VarId, at: ExprId) -> (Vec<Bound>, Vec<Bound>) {
        let sp = self.f.expr(at).span;
        // (condition, whether the access runs when it is false: an `else`, the second arm of
        // `?:`).
        let mut conds: Vec<(ExprId, bool)> = self
            .ifs
            .iter()
            .filter(|(t, _, _)| t.start <= sp.start && sp.end <= t.end)
            .map(|(_, c, neg)| (*c, *neg))
            .collect();
        let (mut lows, mut highs) = (Vec::new(), Vec::new());
        let name = self.module.var(v).name.clone();
        while let Some((c, neg)) = conds.pop() {
            let c = self.strip(c);
            let (op, l, r) = match self.f.expr(c).kind {
                ExprKind::Unary(UnaryOp::Not, x) => {
                    conds.push((x, !neg));
                    continue;
                }
                ExprKind::Binary(op, l, r) => (op, l, r),
                _ => continue,
            };
            // `a && b` holds both; `!(a || b)` holds both negations.
            if (op == BinaryOp::And && !neg) || (op == BinaryOp::Or && neg) {
                conds.extend([(l, neg), (r, neg)]);
                continue;
            }
            let op = if neg {
                match op {
                    BinaryOp::Lt => BinaryOp::Ge,
                    BinaryOp::Le => BinaryOp::Gt,
                    BinaryOp::Gt => BinaryOp::Le,
                    BinaryOp::Ge => BinaryOp::Lt,
                    _ => continue,
                }
            } else {
                op
            };
            if !matches!(
                op,
                BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
            ) {
                continue;
            }
            // `l OP r` as `v OP e`: `l - r` is `±v` plus a rest free of `v`
            // (`i + 1 >= n` is `i >= n - 1`).
            let (Some((pl, dl)), Some((pr, dr))) =
                (self.polys.poly_with_deps(l), self.polys.poly_with_deps(r))
            else {
                continue;
            };
            let d = pl.sub(&pr);
            if d.degree_in(&name) != 1 || d.mentions_within_atoms(&name) {
                continue;
            }
            let coef = d.coefficient(&name);
            let rest = d.subst(&name, &Poly::zero());
            let mut deps = dl;
            merge(&mut deps, dr);
            // The name is the counter itself, not another variable of that name.
            if deps.get(&name) != Some(&BTreeSet::from([v])) {
                continue;
            }
            let varies = rest
                .atoms()
                .into_iter()
                .filter_map(|a| deps.get(a))
                .flatten()
                .any(|x| self.written.contains(x));
            if varies || rest.atoms().into_iter().any(|a| !deps.contains_key(a)) {
                continue;
            }
            // `v OP -rest` when the coefficient is 1, `v OP' rest` when it is -1.
            let (op, p) = match coef.as_const() {
                Some(1) => (op, rest.neg()),
                Some(-1) => (
                    match op {
                        BinaryOp::Lt => BinaryOp::Gt,
                        BinaryOp::Le => BinaryOp::Ge,
                        BinaryOp::Gt => BinaryOp::Lt,
                        _ => BinaryOp::Le,
                    },
                    rest,
                ),
                _ => continue,
            };
            let one = Poly::constant(1);
            match op {
                BinaryOp::Lt => highs.push(Bound::leaf(p.sub(&one))),
                BinaryOp::Le => highs.push(Bound::leaf(p)),
                BinaryOp::Gt => lows.push(Bound::leaf(p.add(&one))),
                BinaryOp::Ge => lows.push(Bound::leaf(p)),
                _ => {}
            }
        }
        (lows, highs)
    }

    fn loop_range(&mut self, l: LoopId, v: VarId, outer: &[VarId]) -> Option<(Bound, Bound)> {
        let (init, step, cond, is_do) = match self.while_ivs.get(&l) {
            Some(w) => (w.init, w.step, w.cond, w.is_do),
            None => {
                let StmtKind::For(fl) = &self.f.stmt(self.cfg.loops[l].stmt).kind else {
                    return None;
                };
                let (init, step, cond) = (fl.init?, fl.step?, fl.cond?);
                (
                    self.init_value(init, v)?,
                    self.step_of(step, v, 0)?,
                    cond,
                    false,
                )
            }
        };
        let mut bounds = Vec::new();
        self.cond_bounds(cond, v, &mut bounds, 0);
        // The counter's start is its lowest value when it counts up, else its highest.
        let start = self.bound_of(init, step > 0, outer, 0)?;
        let mut ends = Vec::new();
        for (op, b) in bounds {
            let adjust = match (step > 0, op) {
                (true, BinaryOp::Lt) => -1,
                (true, BinaryOp::Le) => 0,
                (true, BinaryOp::Ne) if step == 1 => -1,
                (false, BinaryOp::Gt) => 1,
                (false, BinaryOp::Ge) => 0,
                (false, BinaryOp::Ne) if step == -1 => 1,
                _ => continue,
            };
            let Some(end) = self.bound_of(b, step < 0, outer, 0) else {
                continue;
            };
            let by = Poly::constant(adjust);
            ends.extend(end.flat_map(&mut |p| Some(Bound::leaf(p.add(&by)))));
        }
        // Every conjunct of the condition bounds the counter: the tightest is kept (a must
        // section takes the first, as it always has).
        if self.must {
            ends.truncate(1);
        }
        let mut end = Bound::node(true, ends)?;
        if is_do {
            // The first value is used even when the condition is false from the start: the
            // far end covers it too (two candidates that must compare).
            let first_too = self.bound_of(init, step < 0, outer, 0)?;
            end = Bound::Cover(vec![end, first_too]);
        }
        Some(if step > 0 { (start, end) } else { (end, start) })
    }

    /// The candidates of the bound `e` on the side `lower`, through `min` and `max` (calls,
    /// or the conditional expressions the usual `MIN`/`MAX` macros expand to).
    fn bound_of(&mut self, e: ExprId, lower: bool, outer: &[VarId], depth: usize) -> Option<Bound> {
        if depth > MAX_DEFS_DEPTH {
            return None;
        }
        if let Some((kind, a, b)) = self.extremum(e) {
            if self.must {
                return None;
            }
            let tight = kind.tight_for(lower);
            let arms = [a, b].map(|x| self.bound_of(x, lower, outer, depth + 1));
            // Any arm of a tight pair is a valid bound alone; a covering pair needs both.
            let arms: Vec<Bound> = if tight {
                arms.into_iter().flatten().collect()
            } else {
                arms.into_iter().collect::<Option<Vec<_>>>()?
            };
            return Bound::node(tight, arms);
        }
        let (p, deps) = self.polys.poly_with_deps(e)?;
        let (p, deps) = self.inline_single_defs(p, deps, outer)?;
        self.check_atoms(&p, &deps, outer)?;
        Some(Bound::leaf(p))
    }

    /// `p` with each local of the statements that is set once, by its initialiser (`const
    /// int count = start[r + 1] - start[r];`, `int j = 8 * i + k;`), replaced by that value
    /// (the counters `keep` aside). None when such a value is no polynomial.
    fn inline_single_defs(
        &mut self,
        mut p: Poly,
        mut deps: Deps,
        keep: &[VarId],
    ) -> Option<(Poly, Deps)> {
        for _ in 0..MAX_DEFS_DEPTH {
            let once = p.atoms().into_iter().find_map(|a| {
                let vs = deps.get(a)?;
                let v = *vs.iter().next()?;
                let init = match self.defs.get(&v) {
                    Some(Some(list)) if list.len() == 1 => list[0],
                    _ => return None,
                };
                (vs.len() == 1 && self.module.var(v).name == a && !keep.contains(&v))
                    .then(|| (a.to_string(), init))
            });
            let Some((name, init)) = once else { break };
            let (q, d) = self.polys.poly_with_deps(init)?;
            p = p.subst(&name, &q);
            deps.remove(&name);
            merge(&mut deps, d);
        }
        Some((p, deps))
    }

    /// When `e` is a call passing `var` plus offsets (`f(&a[8 * k])`, `f(a + k)`) as the only
    /// argument based on it, to a callee with a body and no `return` or `goto` that writes a
    /// block through that parameter in full ([`covered_sections`] of its body): the index of
    /// the block's first element, its length, in the caller's terms, their variables and the
    /// call.
    fn block_written_by_call(
        &mut self,
        e: ExprId,
        depth: usize,
    ) -> Option<(Poly, Poly, Deps, ExprId)> {
        if depth >= MAX_CALL_DEPTH {
            return None;
        }
        let e = self.strip(e);
        let ExprKind::Call {
            callee: Callee::Direct(c),
            args,
            ..
        } = &self.f.expr(e).kind
        else {
            return None;
        };
        let (c, args) = (*c, args.clone());
        let mut passed = None;
        for (i, &arg) in args.iter().enumerate() {
            if let Some(o) = self.based(arg, 0) {
                if passed.is_some() {
                    return None;
                }
                passed = Some((i, o));
            }
        }
        let (index, offsets) = passed?;
        let callee = self.module.function(c);
        let (body, &param) = (callee.body?, callee.params.get(index)?);
        let jumps_out = callee
            .stmts
            .iter()
            .any(|st| matches!(st.kind, StmtKind::Return(_) | StmtKind::Goto(_)));
        if !callee.has_body || callee.not_analysed.is_some() || jumps_out {
            return None;
        }
        let cfg = crate::ir::cfg::build(self.module, c, crate::ir::cfg::Exec::Device);
        let mut block = covered_at(self.module, c, &cfg, param, body, depth + 1)
            .into_iter()
            .next()?;
        // The callee's parameters in the block, as the call's arguments.
        let mut deps = Deps::new();
        for (k, q) in callee.params.iter().enumerate() {
            let name = &self.module.var(*q).name;
            let uses = [&block.lower, &block.length]
                .iter()
                .any(|b| b.contains_atom(name) || b.mentions_within_atoms(name));
            if !uses {
                continue;
            }
            let (by, d) = self.polys.poly_with_deps(*args.get(k)?)?;
            if block.lower.mentions_within_atoms(name) || block.length.mentions_within_atoms(name) {
                return None;
            }
            merge(&mut deps, d);
            block.lower = block.lower.subst(name, &by);
            block.length = block.length.subst(name, &by);
        }
        // Whatever else the block names is the callee's own, unknown here.
        let known = |p: &Poly| p.atoms().into_iter().all(|a| deps.contains_key(a));
        if !known(&block.lower) || !known(&block.length) {
            return None;
        }
        let mut p = block.lower;
        for (x, plus) in offsets {
            let (q, d) = self.polys.poly_with_deps(x)?;
            merge(&mut deps, d);
            p = if plus { p.add(&q) } else { p.sub(&q) };
        }
        Some((p, block.length, deps, e))
    }

    /// Whether the write at index `p` in the body of the innermost loop of `chain`
    /// (innermost first, every loop inside the kernel) fills one block without holes over
    /// the loops' iterations. Without `block`, `p` is the innermost counter plus a rest free
    /// of it; with `block`, the statement writes `block` elements from `p` on (a call whose
    /// callee writes that many through the pointer it gets). Each counter that `p` names
    /// steps by 1 with a coefficient equal to the number of elements written per iteration
    /// of its loop by what runs inside it (`8 * i + k` for `k` in `[0, 8)`), those loops
    /// running on every iteration with bounds that do not depend on the counters.
    fn tiles(
        &mut self,
        p: &Poly,
        chain: &[(VarId, LoopId)],
        every_iteration: &BTreeSet<StmtId>,
        block: Option<&Poly>,
    ) -> bool {
        let names: Vec<String> = chain
            .iter()
            .map(|(v, _)| self.module.var(*v).name.clone())
            .collect();
        if names.iter().any(|n| p.mentions_within_atoms(n)) {
            return false;
        }
        let (rest, first_loop, mut extent) = match block {
            Some(len) => (p.clone(), 0, len.clone()),
            None => {
                let Some(inner) = names.first() else {
                    return false;
                };
                let rest = p.sub(&Poly::atom(inner));
                if rest.contains_atom(inner) {
                    return false;
                }
                (rest, 1, Poly::constant(1))
            }
        };
        for k in first_loop..chain.len() {
            let name = &names[k];
            if !rest.contains_atom(name) {
                // Loops further out that the index does not name repeat the same block.
                return (k..chain.len()).all(|j| !rest.contains_atom(&names[j]));
            }
            if rest.degree_in(name) != 1 {
                return false;
            }
            if k >= 1 {
                // The loop below: every iteration of this one runs it, over fixed bounds.
                let (below_v, below_l) = chain[k - 1];
                if !every_iteration.contains(&self.cfg.loops[below_l].stmt) {
                    return false;
                }
                if !self.steps_by_one(below_l, below_v) {
                    return false;
                }
                let Some((first, last)) = self.loop_range(below_l, below_v, &[]) else {
                    return false;
                };
                let known = self.module.macros.clone();
                let (Some(first), Some(last)) =
                    (first.resolve(true, &known), last.resolve(false, &known))
                else {
                    return false;
                };
                if names
                    .iter()
                    .any(|n| first.contains_atom(n) || last.contains_atom(n))
                {
                    return false;
                }
                let below = if k == 1 && block.is_none() {
                    Poly::constant(1)
                } else {
                    rest.coefficient(&names[k - 1])
                };
                extent.add_assign(&below.mul(&last.sub(&first)));
            }
            let (outer_v, outer_l) = chain[k];
            if !rest.coefficient(name).sub(&extent).is_zero()
                || !self.steps_by_one(outer_l, outer_v)
            {
                return false;
            }
        }
        true
    }

    /// The index `p` of a write in loop `l` (its locals set once replaced by their values),
    /// when the loops around it inside the kernel make it fill one block ([`Self::tiles`]).
    /// None also when a local set more than once remains: it would stand for each of its
    /// values, a cover of what may be written rather than what must.
    fn tiled_index(
        &mut self,
        p: Poly,
        deps: Deps,
        l: LoopId,
        every_iteration: &BTreeSet<StmtId>,
        block: Option<&Poly>,
    ) -> Option<(Poly, Deps)> {
        let cfg = self.cfg;
        let chain: Vec<(VarId, LoopId)> = cfg
            .loop_chain(l)
            .filter(|x| self.loop_inside[*x])
            .map_while(|x| cfg.loops[x].induction.map(|v| (v, x)))
            .collect();
        let ivs: Vec<VarId> = chain.iter().map(|c| c.0).collect();
        let (p, deps) = self.inline_single_defs(p, deps, &ivs)?;
        let multi = deps
            .values()
            .flatten()
            .any(|v| !ivs.contains(v) && self.defs.contains_key(v));
        (!multi && self.tiles(&p, &chain, every_iteration, block)).then_some((p, deps))
    }

    /// Whether loop `l` is a `for` loop whose step adds 1 to its counter `v`.
    fn steps_by_one(&mut self, l: LoopId, v: VarId) -> bool {
        let StmtKind::For(fl) = &self.f.stmt(self.cfg.loops[l].stmt).kind else {
            return false;
        };
        fl.step.and_then(|s| self.step_of(s, v, 0)) == Some(1)
    }

    /// `e` as `min(a, b)` or `max(a, b)`: a call of `min`/`max` (`std::` too), or
    /// `a < b ? a : b` and its variants.
    fn extremum(&mut self, e: ExprId) -> Option<(Extremum, ExprId, ExprId)> {
        let e = self.strip(e);
        match &self.f.expr(e).kind {
            ExprKind::Call { callee, args, .. } if args.len() == 2 => {
                let name = name_of(self.module, callee)?;
                let kind = match name.rsplit("::").next().unwrap_or(name) {
                    "min" | "imin" | "MIN" => Extremum::Min,
                    "max" | "imax" | "MAX" => Extremum::Max,
                    _ => return None,
                };
                Some((kind, args[0], args[1]))
            }
            &ExprKind::Cond(c, t, f) => {
                let ExprKind::Binary(op, a, b) = self.f.expr(self.strip(c)).kind else {
                    return None;
                };
                let small_first = match op {
                    BinaryOp::Lt | BinaryOp::Le => true,
                    BinaryOp::Gt | BinaryOp::Ge => false,
                    _ => return None,
                };
                let mut same = |x: ExprId, y: ExprId| {
                    let px = self.polys.poly(x);
                    px.is_some() && px == self.polys.poly(y)
                };
                // `a < b ? a : b` is the minimum; `a < b ? b : a` the maximum.
                let kind = if same(a, t) && same(b, f) {
                    small_first
                } else if same(a, f) && same(b, t) {
                    !small_first
                } else {
                    return None;
                };
                let kind = if kind { Extremum::Min } else { Extremum::Max };
                Some((kind, t, f))
            }
            _ => None,
        }
    }

    /// The counters of the `while` and `do` loops inside the statements.
    fn find_while_ivs(&mut self) {
        for i in self.cfg.loops.indices() {
            if !self.loop_inside[i] {
                continue;
            }
            let stmt = self.cfg.loops[i].stmt;
            let (cond, body) = match self.f.stmt(stmt).kind {
                StmtKind::While { cond, body } | StmtKind::Do { body, cond } => (cond, body),
                _ => continue,
            };
            if let Some(w) = self.while_iv(stmt, cond, body) {
                self.while_ivs.insert(i, w);
            }
        }
    }

    fn while_iv(&mut self, stmt: StmtId, cond: ExprId, body: StmtId) -> Option<WhileIv> {
        let mut vars = Vec::new();
        self.vars_in(cond, &mut vars, 0);
        let children = match &self.f.stmt(body).kind {
            StmtKind::Compound(c) => c.clone(),
            _ => vec![body],
        };
        for v in vars {
            let mut bounds = Vec::new();
            self.cond_bounds(cond, v, &mut bounds, 0);
            if bounds.is_empty() {
                continue;
            }
            let steps: Vec<(StmtId, i64)> = children
                .iter()
                .filter_map(|&c| match self.f.stmt(c).kind {
                    StmtKind::Expr(e) => self.step_of(e, v, 0).map(|s| (c, s)),
                    _ => None,
                })
                .collect();
            let [(step_stmt, step)] = steps[..] else {
                continue;
            };
            let step_span = self.f.stmt(step_stmt).span;
            if self.writes_in(v, self.f.stmt(body).span, Some(step_span))
                || self.writes_in(v, self.f.expr(cond).span, None)
            {
                continue;
            }
            let Some((init_stmt, init)) = self.init_before(stmt, v) else {
                continue;
            };
            return Some(WhileIv {
                var: v,
                init,
                init_stmt,
                step,
                step_stmt,
                cond,
                is_do: matches!(self.f.stmt(stmt).kind, StmtKind::Do { .. }),
            });
        }
        None
    }

    /// Integer variables read in `e`.
    fn vars_in(&self, e: ExprId, out: &mut Vec<VarId>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if let ExprKind::Var(v) = self.f.expr(e).kind {
            if !out.contains(&v) {
                out.push(v);
            }
        }
        for c in children(&self.f.expr(e).kind) {
            self.vars_in(c, out, depth + 1);
        }
    }

    /// Whether an expression inside `region` (and not inside `except`) assigns, increments
    /// or takes the address of `v`.
    fn writes_in(&self, v: VarId, region: Span, except: Option<Span>) -> bool {
        let inside = |s: Span, r: Span| r.start <= s.start && s.end <= r.end;
        self.f.exprs.iter().any(|e| {
            if !inside(e.span, region) || except.is_some_and(|x| inside(e.span, x)) {
                return false;
            }
            match e.kind {
                ExprKind::Assign(_, l, _) => self.is_var_expr(l, v),
                ExprKind::Unary(op, x) => {
                    (op.is_increment() || op == UnaryOp::AddrOf) && self.is_var_expr(x, v)
                }
                _ => false,
            }
        })
    }

    /// `v = e;` (or `int v = e;`) before loop statement `stmt` in its block, with no other
    /// write of `v` between them.
    fn init_before(&self, stmt: StmtId, v: VarId) -> Option<(StmtId, ExprId)> {
        let siblings = self.f.stmts.iter().find_map(|s| match &s.kind {
            StmtKind::Compound(c) if c.contains(&stmt) => Some(c),
            _ => None,
        })?;
        let at = siblings.iter().position(|c| *c == stmt)?;
        for &prev in siblings[..at].iter().rev() {
            if let Some(e) = self.init_value(prev, v) {
                return Some((prev, e));
            }
            if self.writes_in(v, self.f.stmt(prev).span, None) {
                return None;
            }
        }
        None
    }

    /// Locals declared inside the statements, with the values they are set to (None when
    /// they are also changed otherwise: `+=`, `++`, address taken).
    fn find_local_defs(&mut self) {
        let f = self.f;
        for st in &f.stmts {
            let StmtKind::Decl(ds) = &st.kind else {
                continue;
            };
            if !self.inside(st.span) {
                continue;
            }
            for (v, init) in ds {
                // A reference local writes what it refers to: not a definition of its own.
                let kind = &self.module.var(*v).ty.kind;
                if !is_integer(kind) || matches!(kind, TypeKind::Reference(_)) {
                    continue;
                }
                let values = self.defs.entry(*v).or_insert(Some(Vec::new()));
                if let (Some(list), Some(i)) = (values.as_mut(), init) {
                    list.push(*i);
                }
            }
        }
        for e in &f.exprs {
            let (target, value) = match e.kind {
                ExprKind::Assign(None, l, r) => (l, Some(r)),
                ExprKind::Assign(Some(_), l, _) => (l, None),
                ExprKind::Unary(op, x) if op.is_increment() || op == UnaryOp::AddrOf => (x, None),
                _ => continue,
            };
            let ExprKind::Var(v) = f.expr(self.strip(target)).kind else {
                continue;
            };
            if let Some(entry) = self.defs.get_mut(&v) {
                match (entry.as_mut(), value) {
                    (Some(list), Some(r)) => list.push(r),
                    _ => *entry = None,
                }
            }
        }
    }

    /// Pointers declared inside the statements with `var` plus offsets as their value and
    /// set nowhere else, their address never taken ([`Analysis::aliases`]).
    fn find_aliases(&mut self, changed: &BTreeSet<VarId>) {
        let f = self.f;
        // In order, so that an alias of an alias is seen after the one it copies.
        for st in &f.stmts {
            let StmtKind::Decl(ds) = &st.kind else {
                continue;
            };
            if !self.inside(st.span) {
                continue;
            }
            for (v, init) in ds {
                let Some(init) = *init else { continue };
                let pointer = matches!(self.module.var(*v).ty.kind, TypeKind::Pointer(_));
                if *v == self.var || !pointer || changed.contains(v) {
                    continue;
                }
                if self.based(init, 0).is_some() {
                    self.aliases.insert(*v, self.strip(init));
                }
            }
        }
    }

    /// The arrays of [`Analysis::offsets`]: a `for` loop inside the statements counting up
    /// by one from `first` while below `end`, with `end - first` (its locals replaced by
    /// their single definitions) the difference of two neighbouring elements of one array.
    fn find_offsets(&mut self) {
        if self.call_depth != 0 {
            return;
        }
        let loops: Vec<(LoopId, VarId)> = self
            .cfg
            .loops
            .iter_enumerated()
            .filter(|(l, _)| self.loop_inside[*l])
            .filter_map(|(l, lp)| Some((l, lp.induction?)))
            .collect();
        for (l, v) in loops {
            let StmtKind::For(fl) = &self.f.stmt(self.cfg.loops[l].stmt).kind else {
                continue;
            };
            let (Some(init), Some(step), Some(cond)) = (fl.init, fl.step, fl.cond) else {
                continue;
            };
            if self.step_of(step, v, 0) != Some(1) {
                continue;
            }
            let Some(first) = self.init_value(init, v) else {
                continue;
            };
            let mut bounds = Vec::new();
            self.cond_bounds(cond, v, &mut bounds, 0);
            for (op, end) in bounds {
                if op != BinaryOp::Lt {
                    continue;
                }
                let (Some((f, fd)), Some((e, ed))) = (
                    self.polys.poly_with_deps(first),
                    self.polys.poly_with_deps(end),
                ) else {
                    continue;
                };
                let (Some((f, fd)), Some((e, mut ed))) = (
                    self.inline_single_defs(f, fd, &[v]),
                    self.inline_single_defs(e, ed, &[v]),
                ) else {
                    continue;
                };
                merge(&mut ed, fd);
                if let Some(a) = self.neighbours(&e.sub(&f), &ed) {
                    self.offsets.insert(a);
                }
            }
        }
    }

    /// The array `A` when `d` is `A[x + 1] - A[x]`.
    fn neighbours(&mut self, d: &Poly, deps: &Deps) -> Option<VarId> {
        let terms: Vec<(Vec<Atom>, i64)> = d.terms().map(|(k, c)| (k.to_vec(), c)).collect();
        let ([(hi, 1), (lo, -1)] | [(lo, -1), (hi, 1)]) = terms.as_slice() else {
            return None;
        };
        let ([hi], [lo]) = (hi.as_slice(), lo.as_slice()) else {
            return None;
        };
        let (hv, lv) = (deps.get(&**hi).cloned(), deps.get(&**lo).cloned());
        let (a, x, _) = self.element_atom(hi, hv.as_ref())?;
        let (b, y, _) = self.element_atom(lo, lv.as_ref())?;
        (a == b && x.sub(&y).as_const() == Some(1)).then_some(a)
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
/// maximises it (each candidate of that end, kinds kept); None unless `p` is monotone in `v`:
/// degree one, all terms with `v` of one sign and free of the other induction variables `ivs`
/// (other atoms are taken as non-negative).
fn extreme(
    p: &Poly,
    v: &str,
    first: &Bound,
    last: &Bound,
    want_min: bool,
    ivs: &[String],
) -> Option<Bound> {
    let mut sign = 0;
    for (key, c) in p.terms() {
        let k = key.iter().filter(|a| &***a == v).count();
        if k == 0 {
            continue;
        }
        if k > 1
            || key
                .iter()
                .any(|a| &**a != v && ivs.iter().any(|i| **i == **a))
        {
            return None;
        }
        let s = c.signum();
        if sign != 0 && sign != s {
            return None;
        }
        sign = s;
    }
    if sign == 0 {
        return Some(Bound::leaf(p.clone()));
    }
    let by = if (sign > 0) == want_min { first } else { last };
    by.flat_map(&mut |b| Some(Bound::leaf(p.subst(v, b))))
}

/// The element count of the allocation a pointer `var` holds: `var` initialised or assigned in
/// `func` from `malloc(E)`, `calloc(n, s)`, `aligned_alloc(a, E)`, `realloc(p, E)`,
/// `posix_memalign(&var, a, E)`, `_mm_malloc(E, a)`, `omp_alloc(E, al)` or
/// `omp_aligned_alloc(a, E, al)` (casts looked through), `E` divided exactly by the element
/// size (`sizeof` is folded by the front end). Assignments of a null pointer are ignored; any
/// other assignment, `var += k`, `var++` or `&var` elsewhere gives None, and so do two
/// allocations of different lengths. Only `func`'s statements are looked at; the length is in
/// terms of the variables as they are at the allocation. C++ `new T[n]` counts `n` elements
/// when `T` is the pointer's own element type.
pub fn allocation_length(module: &Module, func: FuncId, var: VarId) -> Option<Poly> {
    allocation(module, func, var, false)
}

/// [`allocation_length`] in the program's own terms (macro uses keep their names).
pub fn allocation_length_named(module: &Module, func: FuncId, var: VarId) -> Option<Poly> {
    allocation(module, func, var, true)
}

fn allocation(module: &Module, func: FuncId, var: VarId, named: bool) -> Option<Poly> {
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
    let mut sizes: Vec<Option<AllocSize>> = Vec::new();
    let mut memalign_addr: BTreeSet<ExprId> = BTreeSet::new();
    let alloc_bytes = |written: ExprId| -> Option<Option<AllocSize>> {
        let rhs = strip(written);
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
                // A function returning an allocation (`Allocate<T>(n)`).
                let returned = || {
                    (matches!(callee, Callee::Direct(_)) && rhs == written)
                        .then_some(AllocSize::Returned(rhs))
                };
                Some(bytes.map(AllocSize::Bytes).or_else(returned))
            }
            // `new T[n]` into a `T *` (a cast in between could change the element's size).
            ExprKind::NewArray {
                len,
                elem_size: Some(size),
                ..
            } if rhs == written && *size == elem as u64 => Some(Some(AllocSize::Elements(*len))),
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
                        sizes.push(Some(AllocSize::Bytes(vec![args[2]])));
                    }
                }
            }
        }
    }
    for (i, ex) in f.exprs.iter_enumerated() {
        match ex.kind {
            ExprKind::Assign(None, l, r) if is_var(l) => sizes.extend(alloc_bytes(r)),
            ExprKind::Assign(Some(_), l, _) if is_var(l) => return None,
            ExprKind::Unary(op, x) if op.is_increment() && is_var(x) => return None,
            ExprKind::Unary(UnaryOp::AddrOf, x)
                if is_var(x) && !memalign_addr.contains(&i) && !released_at(module, f, i) =>
            {
                return None
            }
            _ => {}
        }
    }
    let mut polys = if named {
        ExprPolys::naming_macros(module, f)
    } else {
        ExprPolys::new(module, f)
    };
    let mut found: Option<Poly> = None;
    for s in sizes {
        let len = match s? {
            AllocSize::Bytes(factors) => {
                let mut bytes = Poly::constant(1);
                for e in factors {
                    bytes = bytes
                        .mul(&polys.poly(super::allocation::through_fixed_locals(module, f, e))?);
                }
                let len = bytes.div(elem)?;
                if len.scale(elem) != bytes {
                    return None;
                }
                len
            }
            AllocSize::Elements(n) => {
                polys.poly(super::allocation::through_fixed_locals(module, f, n))?
            }
            AllocSize::Returned(call) => {
                // `double *a = Allocate<double>(n)`: the template's `sizeof(T)` is the
                // element's size (with no cast between the call and `a`).
                let bytes = super::allocation::bytes_of(module, func, &mut polys, call)?
                    .subst(super::allocation::DEPENDENT_SIZEOF, &Poly::constant(elem));
                let len = bytes.div(elem)?;
                if len.scale(elem) != bytes {
                    return None;
                }
                len
            }
        };
        match &found {
            Some(p) if *p != len => return None,
            _ => found = Some(len),
        }
    }
    found
}

/// Whether `addr` (`&p`) is an argument of a call of a function that, through that
/// parameter, only reads the pointer and sets it to null (`Release(&p)`: `free(*ptr); *ptr =
/// NULL;`): the call gives `p` no other allocation.
fn released_at(module: &Module, f: &crate::ir::Function, addr: ExprId) -> bool {
    let call = f.exprs.iter().find_map(|ex| match &ex.kind {
        ExprKind::Call {
            callee: Callee::Direct(id),
            args,
            ..
        } => args
            .iter()
            .position(|a| f.strip_casts(*a) == addr)
            .map(|i| (*id, i)),
        _ => None,
    });
    let Some((id, i)) = call else { return false };
    let callee = module.function(id);
    let Some(&p) = callee.params.get(i) else {
        return false;
    };
    if !callee.has_body {
        return false;
    }
    let strip = |e: ExprId| callee.strip_casts(e);
    let is_p = |e: ExprId| matches!(callee.expr(strip(e)).kind, ExprKind::Var(x) if x == p);
    let is_deref_p = |e: ExprId| matches!(callee.expr(strip(e)).kind, ExprKind::Unary(UnaryOp::Deref, x) if is_p(x));
    let uses = callee
        .exprs
        .iter()
        .filter(|ex| matches!(ex.kind, ExprKind::Var(x) if x == p))
        .count();
    let derefs = callee
        .exprs
        .iter()
        .filter(|ex| matches!(ex.kind, ExprKind::Unary(UnaryOp::Deref, x) if is_p(x)))
        .count();
    uses == derefs
        && callee.exprs.iter().all(|ex| match &ex.kind {
            ExprKind::Assign(None, l, r) if is_deref_p(*l) => callee.is_null_pointer(*r),
            ExprKind::Assign(Some(_), l, _) => !is_deref_p(*l),
            ExprKind::Unary(op, x) if op.is_increment() || *op == UnaryOp::AddrOf => {
                !is_deref_p(*x)
            }
            _ => true,
        })
}

/// Whether `bytes` (the byte count of `memset(var, c, bytes)` in `func`) is the whole
/// allocation `var` holds there: the same product, through the same fixed locals, as the
/// allocation's length times the element's size (`malloc(size)` and `memset(p, 0, size)`).
pub fn is_whole_allocation(module: &Module, func: FuncId, var: VarId, bytes: ExprId) -> bool {
    let Some(len) = allocation_length(module, func, var) else {
        return false;
    };
    let elem = match &module.var(var).ty.referent().kind {
        TypeKind::Pointer(t) => t.size.and_then(|s| i64::try_from(s).ok()),
        _ => None,
    };
    let Some(elem) = elem.filter(|e| *e > 0) else {
        return false;
    };
    let f = module.function(func);
    let mut polys = ExprPolys::new(module, f);
    polys.poly(super::allocation::through_fixed_locals(module, f, bytes)) == Some(len.scale(elem))
}

/// How an allocation gives its size: bytes as a product of factors (`malloc(n * sizeof(T))`,
/// `calloc(n, sizeof(T))`), or a count of the pointer's own elements (`new T[n]`).
enum AllocSize {
    Bytes(Vec<ExprId>),
    Elements(ExprId),
    /// A call of a function that returns an allocation (`semantics::allocation`).
    Returned(ExprId),
}

/// A file-scope pointer that every function of the module only ever sets to an allocation
/// (`malloc`, `calloc`, ...) or null, whose address is never taken and whose value is never
/// copied into another variable: its data has no other name, so whether it is mapped is
/// decided by this pointer's own map clauses.
pub fn holds_only_own_allocations(module: &Module, var: VarId) -> bool {
    only_allocations(module, module.functions.iter(), var, &|_| false, false)
}

/// Whether the local pointer `var` of `func` only ever holds memory whose contents are
/// indeterminate when it is allocated (`malloc`, `aligned_alloc`, `new T[n]` of scalars with
/// no initialiser) or null, and its value and address go nowhere else: until something
/// writes through it, its data holds no value a copy could preserve. Not `calloc` (zeroes) or
/// `realloc` (keeps the old contents).
pub fn holds_only_indeterminate_allocations(module: &Module, func: FuncId, var: VarId) -> bool {
    module.var(var).storage == crate::ir::Storage::Local
        && only_allocations(
            module,
            std::iter::once(module.function(func)),
            var,
            &|_| false,
            true,
        )
}

/// Whether `var` is an automatic array of scalars of `func` declared with no initialiser
/// (`int count[1];`): its elements are indeterminate until written.
pub fn uninitialised_local_array(module: &Module, func: FuncId, var: VarId) -> bool {
    let v = module.var(var);
    let scalars = matches!(&v.ty.kind, TypeKind::Array { element, .. } if element.is_scalar());
    v.storage == crate::ir::Storage::Local
        && scalars
        && module.function(func).stmts.iter().any(|st| {
            matches!(&st.kind, StmtKind::Decl(ds) if ds.iter().any(|(x, init)| *x == var && init.is_none()))
        })
}

/// [`holds_only_own_allocations`] for a local pointer of function `func`: its declaration and
/// every assignment give it an allocation (of any size) or null, and its value and address
/// go nowhere else but into locals for which `alias` holds and that hold nothing else
/// (`double *d = (double *)h;`, where the caller follows `d` to its one root `h`).
pub fn local_holds_only_own_allocations(
    module: &Module,
    func: FuncId,
    var: VarId,
    alias: &dyn Fn(VarId) -> bool,
) -> bool {
    let f = module.function(func);
    let alias_ok = |x: VarId| {
        module.var(x).storage == crate::ir::Storage::Local
            && alias(x)
            && only_copies_of(f, x, var, &|e| copied_variable(f, e))
    };
    only_allocations(module, std::iter::once(f), var, &alias_ok, false)
}

/// The variable the local pointer `x` of `f` is an exact copy of: every definition of `x` is
/// `var` (through casts) for one local or parameter `var` that is not assigned after that
/// copy, and both point to elements of one size. A clause naming `x` maps
/// `var`'s data in `var`'s own units.
pub fn exact_copy_root(module: &Module, f: &crate::ir::Function, x: VarId) -> Option<VarId> {
    copy_root(module, f, x).and_then(|(root, same_units)| same_units.then_some(root))
}

/// Like [`exact_copy_root`], but the two may point to elements of different (known) sizes
/// (`double *co = (double *)cold;` with `cold` a pointer to whole 2-D arrays): the root, and
/// whether a section of `x` counts in the root's units. A clause naming `x` then maps the
/// root's data from its start, in units of `x`'s elements.
pub fn copy_root(module: &Module, f: &crate::ir::Function, x: VarId) -> Option<(VarId, bool)> {
    root_of(module, f, x, copied_variable)
}

/// The variable whose data the local pointer `x` of `f` points into, at an offset or not
/// (`int *tail = data + 1;`, `&data[k]`), under [`copy_root`]'s conditions. An item naming
/// `x` (`tail[0:1]`) then names part of that variable's data, where in it not known here.
pub fn offset_root(module: &Module, f: &crate::ir::Function, x: VarId) -> Option<VarId> {
    root_of(module, f, x, |f, e| {
        copied_variable(f, e).or_else(|| offset_variable(f, e))
    })
    .map(|(root, _)| root)
}

/// The pointer variable `e` adds an offset to (`data + k`, `k + data`, `data - k`,
/// `&data[k]`).
fn offset_variable(f: &crate::ir::Function, e: ExprId) -> Option<VarId> {
    let var = |e: ExprId| match f.expr(f.strip_casts(e)).kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    };
    match f.expr(f.strip_casts(e)).kind {
        ExprKind::Binary(BinaryOp::Add, a, b) => var(a).or_else(|| var(b)),
        ExprKind::Binary(BinaryOp::Sub, a, _) => var(a),
        ExprKind::Unary(UnaryOp::AddrOf, x) => match f.expr(x).kind {
            ExprKind::Subscript(b, _) => var(b),
            _ => None,
        },
        _ => None,
    }
}

/// [`copy_root`] with `source_of` saying which variable a definition of `x` copies.
fn root_of(
    module: &Module,
    f: &crate::ir::Function,
    x: VarId,
    source_of: impl Fn(&crate::ir::Function, ExprId) -> Option<VarId>,
) -> Option<(VarId, bool)> {
    let var_of = |e: ExprId| match f.expr(f.strip_casts(e)).kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    };
    let source_of = |e: ExprId| source_of(f, e);
    // The root: the declaration's initializer, or else the first assignment (`p = a;` in a
    // region, after `int *p;`); `only_copies_of` checks every other definition.
    let mut root = None;
    let mut decl_at = u32::MAX;
    for st in &f.stmts {
        if let StmtKind::Decl(ds) = &st.kind {
            for (v, init) in ds {
                if *v == x {
                    if let Some(i) = init {
                        root = Some(source_of(*i)?);
                        decl_at = st.span.start;
                    }
                }
            }
        }
    }
    if root.is_none() && module.var(x).storage == crate::ir::Storage::Local {
        let first = f
            .exprs
            .iter()
            .filter_map(|ex| match &ex.kind {
                ExprKind::Assign(None, l, r) if var_of(*l) == Some(x) => Some((ex.span.start, *r)),
                _ => None,
            })
            .min_by_key(|(at, _)| *at)?;
        root = Some(source_of(first.1)?);
        decl_at = first.0;
    }
    let root = root?;
    if set_in_device_address_region(module, f, x) {
        return None;
    }
    let elem = |v: VarId| match &module.var(v).ty.referent().kind {
        TypeKind::Pointer(t) => t.size.filter(|s| *s > 0),
        TypeKind::Array { element, .. } => element.size.filter(|s| *s > 0),
        _ => None,
    };
    // An array is its own storage wherever it lives (it cannot be set to other storage).
    let array = matches!(module.var(root).ty.referent().kind, TypeKind::Array { .. });
    let stable = (array
        || matches!(
            module.var(root).storage,
            crate::ir::Storage::Local | crate::ir::Storage::Parameter
        ))
        && elem(root).is_some()
        && elem(x).is_some()
        && only_copies_of(f, x, root, &source_of)
        // `root` keeps the value it had at the copy: set (if at all) only before it.
        && !f.exprs.iter().any(|ex| match &ex.kind {
            ExprKind::Assign(_, l, _) => var_of(*l) == Some(root) && ex.span.start > decl_at,
            ExprKind::Unary(op, y) => {
                (op.is_increment() || *op == UnaryOp::AddrOf) && var_of(*y) == Some(root)
            }
            // Passed to a reference parameter (`swap(float *&a, float *&b)`): the callee may
            // set it.
            ExprKind::Call {
                callee: crate::ir::Callee::Direct(c),
                args,
                ..
            } => args.iter().enumerate().any(|(i, a)| {
                var_of(*a) == Some(root)
                    && module.function(*c).params.get(i).is_some_and(|p| {
                        matches!(module.var(*p).ty.kind, TypeKind::Reference(_))
                    })
            }),
            _ => false,
        });
    stable.then(|| (root, elem(root) == elem(x)))
}

/// Some definition of `x` lies in a `target data` region with `use_device_ptr` or
/// `use_device_addr`: there the other variable's name is its device address, so `x` is not a
/// view of its host data.
fn set_in_device_address_region(module: &Module, f: &crate::ir::Function, x: VarId) -> bool {
    let Some(id) = module
        .functions
        .iter_enumerated()
        .find_map(|(id, g)| std::ptr::eq(g, f).then_some(id))
    else {
        return false;
    };
    let regions: Vec<crate::ir::Span> = module
        .directives
        .iter()
        .filter(|d| d.function == Some(id))
        .filter(|d| {
            d.directive.has_clause("use_device_ptr") || d.directive.has_clause("use_device_addr")
        })
        .filter_map(|d| d.governs.map(|s| f.stmt(s).span))
        .collect();
    if regions.is_empty() {
        return false;
    }
    let inside = |s: crate::ir::Span| regions.iter().any(|r| r.start <= s.start && s.end <= r.end);
    let is_x = |e: ExprId| matches!(f.expr(f.strip_casts(e)).kind, ExprKind::Var(y) if y == x);
    f.exprs
        .iter()
        .any(|ex| matches!(&ex.kind, ExprKind::Assign(_, l, _) if is_x(*l)) && inside(ex.span))
        || f.stmts.iter().any(|st| {
            matches!(&st.kind, StmtKind::Decl(ds) if ds.iter().any(|(v, i)| *v == x && i.is_some()))
                && inside(st.span)
        })
}

/// Every definition of the local `x` in `f` is a copy of `var` (through casts), and there is
/// at least one.
/// The variable whose storage `e` starts at: `v` itself (through casts; an array decays to
/// its start), or `&v[0]`.
fn copied_variable(f: &crate::ir::Function, e: ExprId) -> Option<VarId> {
    match f.expr(f.strip_casts(e)).kind {
        ExprKind::Var(v) => Some(v),
        ExprKind::Unary(UnaryOp::AddrOf, x) => match f.expr(x).kind {
            ExprKind::Subscript(b, i)
                if matches!(
                    f.expr(f.strip_casts(i)).kind,
                    ExprKind::Int { value: Some(0), .. }
                ) =>
            {
                match f.expr(f.strip_casts(b)).kind {
                    ExprKind::Var(v) => Some(v),
                    _ => None,
                }
            }
            _ => None,
        },
        _ => None,
    }
}

fn only_copies_of(
    f: &crate::ir::Function,
    x: VarId,
    var: VarId,
    source_of: &dyn Fn(ExprId) -> Option<VarId>,
) -> bool {
    let is_x =
        |e: ExprId, v: VarId| matches!(f.expr(f.strip_casts(e)).kind, ExprKind::Var(y) if y == v);
    let is = |e: ExprId, v: VarId| source_of(e) == Some(v);
    let mut any = false;
    for st in &f.stmts {
        if let StmtKind::Decl(ds) = &st.kind {
            for (v, init) in ds {
                if *v == x {
                    match init {
                        Some(i) if is(*i, var) => any = true,
                        Some(_) => return false,
                        None => {}
                    }
                }
            }
        }
    }
    for ex in f.exprs.iter() {
        match &ex.kind {
            ExprKind::Assign(None, l, r) if is_x(*l, x) => {
                if !is(*r, var) {
                    return false;
                }
                any = true;
            }
            ExprKind::Assign(Some(_), l, _) if is_x(*l, x) => return false,
            ExprKind::Unary(op, y) if op.is_increment() && is_x(*y, x) => return false,
            ExprKind::Unary(UnaryOp::AddrOf, y) if is_x(*y, x) => return false,
            _ => {}
        }
    }
    any
}

/// With `indeterminate`, only allocations that leave the memory uninitialised count.
fn only_allocations<'a>(
    module: &Module,
    funcs: impl Iterator<Item = &'a crate::ir::Function>,
    var: VarId,
    alias_ok: &dyn Fn(VarId) -> bool,
    indeterminate: bool,
) -> bool {
    // `new T[n]` leaves scalars uninitialised; a class's constructor runs on each element.
    let scalar_elements = matches!(
        &module.var(var).ty.referent().kind,
        TypeKind::Pointer(t) if t.is_scalar()
    );
    let mut allocated = false;
    for f in funcs {
        let strip = |mut e: ExprId| {
            while let ExprKind::Cast(x) = f.expr(e).kind {
                e = x;
            }
            e
        };
        let is_var = |e: ExprId| matches!(f.expr(strip(e)).kind, ExprKind::Var(x) if x == var);
        // None: not an allocation; Some(true): an allocation; Some(false): null.
        let allocation = |r: ExprId| match &f.expr(strip(r)).kind {
            ExprKind::NullPtr | ExprKind::Int { value: Some(0), .. } => Some(false),
            ExprKind::Call { callee, .. }
                if matches!(
                    name_of(module, callee),
                    Some(
                        "malloc"
                            | "aligned_alloc"
                            | "_mm_malloc"
                            | "omp_alloc"
                            | "omp_aligned_alloc"
                    )
                ) =>
            {
                Some(true)
            }
            ExprKind::Call { callee, .. }
                if !indeterminate
                    && matches!(name_of(module, callee), Some("calloc" | "realloc")) =>
            {
                Some(true)
            }
            ExprKind::NewArray { initialised, .. }
                if !indeterminate || (!initialised && scalar_elements) =>
            {
                Some(true)
            }
            _ => None,
        };
        for st in &f.stmts {
            if let StmtKind::Decl(ds) = &st.kind {
                for (v, init) in ds {
                    match init {
                        Some(i) if *v == var => match allocation(*i) {
                            Some(a) => allocated |= a,
                            None => return false,
                        },
                        Some(i) if is_var(*i) && !alias_ok(*v) => return false,
                        _ => {}
                    }
                }
            }
        }
        // `posix_memalign((void **)&p, align, size)` sets `p` to uninitialised memory: the
        // one place its address may go (counted only where indeterminate memory is asked
        // for; the callers of the other mode follow the pointer's address elsewhere).
        let mut memaligned = std::collections::HashSet::new();
        if indeterminate {
            for ex in f.exprs.iter() {
                if let ExprKind::Call { callee, args, .. } = &ex.kind {
                    if name_of(module, callee) == Some("posix_memalign") {
                        if let Some(&a) = args.first() {
                            let a = strip(a);
                            if matches!(f.expr(a).kind, ExprKind::Unary(UnaryOp::AddrOf, x) if is_var(x))
                            {
                                memaligned.insert(a);
                                allocated = true;
                            }
                        }
                    }
                }
            }
        }
        for (id, ex) in f.exprs.iter_enumerated() {
            match &ex.kind {
                ExprKind::Unary(UnaryOp::AddrOf, _) if memaligned.contains(&id) => {}
                ExprKind::Assign(None, l, r) if is_var(*l) => match allocation(*r) {
                    Some(a) => allocated |= a,
                    None => return false,
                },
                ExprKind::Assign(_, l, r) if is_var(*r) && !is_var(*l) => {
                    let to_alias =
                        matches!(f.expr(strip(*l)).kind, ExprKind::Var(x) if alias_ok(x));
                    if !to_alias {
                        return false;
                    }
                }
                ExprKind::Assign(Some(_), l, _) if is_var(*l) => return false,
                ExprKind::Unary(op, x) if op.is_increment() && is_var(*x) => return false,
                ExprKind::Unary(UnaryOp::AddrOf, x) if is_var(*x) => return false,
                _ => {}
            }
        }
    }
    allocated
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
    covered_at(module, func, cfg, var, kernel, 0)
}

/// [`covered_sections`], `depth` calls deep (a callee's body counts as its kernel).
fn covered_at(
    module: &Module,
    func: FuncId,
    cfg: &Cfg,
    var: VarId,
    kernel: StmtId,
    depth: usize,
) -> Vec<Section> {
    covered_in(&KernelCover::new(module, func, cfg, kernel), var, depth)
}

/// What [`covered_sections`] of any variable in one kernel reads, computed once.
pub struct KernelCover<'a> {
    scope: Scope<'a>,
    kernel: StmtId,
    /// The statements that run on every iteration of their innermost loop.
    every_iteration: BTreeSet<StmtId>,
    /// Variables written in the kernel, and those written other than by a loop header.
    written: BTreeSet<VarId>,
    stray: BTreeSet<VarId>,
}

impl<'a> KernelCover<'a> {
    pub fn new(module: &'a Module, func: FuncId, cfg: &'a Cfg, kernel: StmtId) -> Self {
        let mut scope = Scope::bare(module, func, cfg, &[kernel]);
        // With the variables the nodes' accesses reach, so that a node naming neither the
        // variable nor one of its aliases certainly writes none of its data.
        scope.names = node_names(scope.f, &scope.nodes);
        for ((_, n), names) in scope.nodes.iter().zip(scope.names.iter_mut()) {
            names.extend(n.accesses.iter().filter_map(|a| match a.root {
                Root::Var(x) => Some(x),
                Root::This => None,
            }));
            names.sort();
            names.dedup();
        }
        let mut every_iteration = BTreeSet::new();
        unconditional(scope.f, kernel, true, &mut every_iteration, 0);
        let (mut written, mut stray) = (BTreeSet::new(), BTreeSet::new());
        let mut a = Analysis::new(&scope, VarId(0), false, MAX_CALL_DEPTH);
        for &(i, acc) in &scope.writes {
            let Root::Var(x) = acc.root else { continue };
            written.insert(x);
            if !a.header_write(scope.nodes[i].1, x) {
                stray.insert(x);
            }
        }
        a.find_local_defs();
        let defs = a.defs;
        scope.defs = defs;
        KernelCover {
            scope,
            kernel,
            every_iteration,
            written,
            stray,
        }
    }

    /// [`covered_sections`] of `var` in the kernel.
    pub fn covered(&self, var: VarId) -> Vec<Section> {
        covered_in(self, var, 0)
    }
}

fn covered_in(cover: &KernelCover<'_>, var: VarId, depth: usize) -> Vec<Section> {
    let scope = &cover.scope;
    let (f, cfg, kernel) = (scope.f, scope.cfg, cover.kernel);
    let span = f.stmt(kernel).span;
    let within = |s: StmtId| {
        let sp = f.stmt(s).span;
        span.start <= sp.start && sp.end <= span.end
    };
    let every_iteration = &cover.every_iteration;
    let mut a = Analysis::new(scope, var, false, MAX_CALL_DEPTH);
    // What a callee writes is what it may write, not what it must: not followed.
    a.must = true;
    a.written = cover.written.clone();
    a.stray = cover.stray.clone();
    a.defs = scope.defs.clone();
    a.find_aliases(&scope.changed);
    let nodes = scope.nodes.clone();
    let mut out = Vec::new();
    for ((lid, n), names) in nodes.iter().zip(&scope.names) {
        let Some(l) = *lid else { continue };
        if !names.iter().any(|v| *v == var || a.aliases.contains_key(v)) {
            continue;
        }
        if n.kind != NodeKind::Stmt || !every_iteration.contains(&n.stmt) {
            continue;
        }
        let lp = &cfg.loops[l];
        let Some(iv) = lp.induction else { continue };
        if !a.loop_inside[l] || a.stray.contains(&iv) {
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
            if acc.escape.is_some() || !acc.kind.writes() {
                continue;
            }
            // A write through a pointer the kernel made from `var` (`out_bt = out + b * C`).
            let offsets = if x == var {
                Vec::new()
            } else if let Some(&init) = a.aliases.get(&x) {
                let Some(o) = a.based(init, 0) else { continue };
                o
            } else {
                continue;
            };
            let Some((mut p, mut deps)) = a.polys.poly_with_deps(*e) else {
                continue;
            };
            let mut ok = true;
            for (o, plus) in offsets {
                let Some((q, d)) = a.polys.poly_with_deps(o) else {
                    ok = false;
                    break;
                };
                merge(&mut deps, d);
                p = if plus { p.add(&q) } else { p.sub(&q) };
            }
            if !ok {
                continue;
            }
            let Some((p, deps)) = a.tiled_index(p, deps, l, every_iteration, None) else {
                continue;
            };
            let r = Record {
                index: p,
                deps,
                expr: acc.expr,
                modulo: None,
            };
            if let Some(s) = a.section(&r, Some(l)) {
                out.push(s);
            }
        }
        // A call whose callee writes a block through the pointer it is given, in full
        // (`sum_forces(&f[8 * k])` with `for (i = 0; i < 8; i++) fx[i] = ...`).
        for &root in &n.exprs {
            let Some((p, len, deps, at)) = a.block_written_by_call(root, depth) else {
                continue;
            };
            let Some((p, deps)) = a.tiled_index(p, deps, l, every_iteration, Some(&len)) else {
                continue;
            };
            let first = Record {
                index: p.clone(),
                deps: deps.clone(),
                expr: at,
                modulo: None,
            };
            let last = Record {
                index: p.add(&len).sub(&Poly::constant(1)),
                deps,
                expr: at,
                modulo: None,
            };
            if let (Some(lo), Some(hi)) = (a.section(&first, Some(l)), a.section(&last, Some(l))) {
                out.push(Section::from_bounds(
                    &lo.lower,
                    &hi.end().sub(&Poly::constant(1)),
                ));
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

/// The length of the data behind `v`, a local pointer of `func` set once, at its
/// declaration, to the first element of a `std::vector` (`&d->m_x[0]`, `v.data()`,
/// `&v.front()`): the vector's `size()` (`d->m_x.size()`), when the vector is a variable or
/// a member of one that is not set again after the declaration. Evaluated where a map clause
/// goes, it is the size of the storage `v` still points into (a vector resized in between
/// would leave `v` dangling, which the program does not expect).
pub fn vector_view_length(module: &Module, func: FuncId, v: VarId) -> Option<Poly> {
    let f = module.function(func);
    let var = module.var(v);
    if var.storage != crate::ir::Storage::Local || !var.ty.is_pointer() {
        return None;
    }
    let strip = |e: ExprId| f.strip_casts(e);
    let (init, decl_at) = f.stmts.iter().find_map(|st| match &st.kind {
        StmtKind::Decl(ds) => ds
            .iter()
            .find(|(d, _)| *d == v)
            .map(|(_, i)| (*i, st.span.start)),
        _ => None,
    })?;
    let (receiver, method) = super::effects::first_element_view(module, f, init?)?;
    let m = module.function(method?);
    if !(m.qualified_name.starts_with("std::") && m.qualified_name.contains("vector")) {
        return None;
    }
    // The vector: `x`, `x.m` or `x->m`, with `x` not set after the view is taken.
    let (base, text) = match &f.expr(strip(receiver)).kind {
        ExprKind::Var(x) => (*x, module.var(*x).name.clone()),
        ExprKind::Member {
            base: Some(b),
            field,
            arrow,
        } => match f.expr(strip(*b)).kind {
            ExprKind::Var(x) => (
                x,
                format!(
                    "{}{}{field}",
                    module.var(x).name,
                    if *arrow { "->" } else { "." }
                ),
            ),
            _ => return None,
        },
        _ => return None,
    };
    let is = |e: ExprId, x: VarId| matches!(f.expr(strip(e)).kind, ExprKind::Var(y) if y == x);
    let changed = f.exprs.iter().any(|ex| match &ex.kind {
        ExprKind::Assign(_, l, _) => is(*l, v) || (is(*l, base) && ex.span.start > decl_at),
        ExprKind::Unary(op, x) => (op.is_increment() || *op == UnaryOp::AddrOf) && is(*x, v),
        _ => false,
    });
    (!changed).then(|| Poly::atom(&format!("{text}.size()")))
}
