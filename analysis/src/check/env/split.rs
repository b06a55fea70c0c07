//! Struct variables the checker follows member by member.
//!
//! Map items that name members of one struct variable apart (`map(to: g.x) map(from: g.y)`)
//! give each member a life of its own on the device: a host write to `g.x` leaves `g.y`'s
//! device copy as valid as it was, and a copy back of `g.y` does not bring `g.x` home.
//! Followed as one object, `g` would be stale after the write to `g.x` (a false "stale read"
//! of `g.y`), and "copied back but the device never wrote it" would be said of `g.x` when the
//! kernel wrote `g.y`. So such a variable is followed as one object per member
//! (`Object::Field`), but only where nothing in the function needs it whole:
//!
//! - it is a local (not `static`), a parameter passed by value or a global, of struct type,
//!   not `declare target`, in a file with no `declare mapper` (a mapper's items are the
//!   whole variable's);
//! - every list item of the function's directives that names it names one of its members
//!   (`g.x`, `g.x[0:n]`) in a `map`, `to` or `from` clause;
//! - every use of it in the function is a member access `g.m` (no `&g`, no `g` passed or
//!   copied whole), and no local pointer or reference is set from one (`p = g.x`: the
//!   analyses would follow `p` to `g`, not to `g.x`);
//! - every member a kernel of the function uses is one a map item names (what the device
//!   holds of a partly mapped struct otherwise is not modelled);
//! - for a global or a parameter, also: no function of the file calls this one or takes its
//!   address (no caller's context has to agree with the split); for a global, it calls only
//!   library functions too (nor does a callee's summary or exits).

use crate::ir::{Callee, ExprKind, FuncId, Module, StmtKind, Storage, TypeKind, VarId};
use crate::pragma::{Accessor, ClauseKind};
use crate::semantics::validity::Object;
use std::collections::{HashMap, HashSet};

/// What one variable's uses allow.
#[derive(Default)]
struct Candidate {
    /// Members named by map/motion items.
    mapped: HashSet<String>,
    /// Members used in kernels.
    on_device: HashSet<String>,
    /// Something needs the variable whole.
    whole: bool,
}

/// The struct variables function `id` follows member by member (see the module's
/// documentation).
pub fn split_structs(module: &Module, id: FuncId) -> HashSet<VarId> {
    let mut cands: HashMap<VarId, Candidate> = HashMap::new();
    // (A `declare mapper` anywhere in the file keeps every variable whole: `has_mappers`.)
    for (v, motion, item) in var_items(module, id) {
        let c = cands.entry(v).or_default();
        match item.path.first() {
            Some(Accessor::Member { name, arrow: false }) if motion && !item.deref => {
                c.mapped.insert(name.name.clone());
            }
            _ => c.whole = true,
        }
    }
    cands.retain(|v, c| !c.whole && !c.mapped.is_empty() && eligible_var(module, *v));
    if cands.is_empty() || has_mappers(module) {
        return HashSet::new();
    }
    let func = module.function(id);
    let kernels: Vec<crate::pragma::Span> = crate::ir::kernel_stmts(module, func)
        .into_iter()
        .map(|k| func.stmt(k).span)
        .collect();
    let in_kernel =
        |s: crate::pragma::Span| kernels.iter().any(|k| k.start <= s.start && s.end <= k.end);
    // Uses of each candidate: all of them, and those that are member accesses.
    let mut uses: HashMap<VarId, (usize, usize)> = HashMap::new();
    for e in func.exprs.iter() {
        match &e.kind {
            ExprKind::Var(v) if cands.contains_key(v) => uses.entry(*v).or_default().0 += 1,
            ExprKind::Member {
                base: Some(b),
                field,
                arrow: false,
            } => {
                if let ExprKind::Var(v) = func.expr(*b).kind {
                    if let Some(c) = cands.get_mut(&v) {
                        uses.entry(v).or_default().1 += 1;
                        if in_kernel(e.span) {
                            c.on_device.insert(field.clone());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // Local pointers and references set from an expression naming a candidate.
    for (target, rhs) in local_sets(func) {
        let t = &module.var(target).ty;
        if t.is_pointer() || matches!(t.kind, TypeKind::Reference(_)) {
            for v in mentioned(func, rhs) {
                if let Some(c) = cands.get_mut(&v) {
                    c.whole = true;
                }
            }
        }
    }
    let mut out: HashSet<VarId> = cands
        .into_iter()
        .filter(|(v, c)| {
            !c.whole
                && uses.get(v).is_some_and(|(all, members)| all == members)
                && c.on_device.is_subset(&c.mapped)
        })
        .map(|(v, _)| v)
        .collect();
    let storage = |v: &VarId| module.var(*v).storage;
    let global = |v: &VarId| matches!(storage(v), Storage::Global | Storage::StaticGlobal);
    let parameter = |v: &VarId| storage(v) == Storage::Parameter;
    // (A caller of this file would give the function a context for the variable whole; for
    // a global, so would a callee's summary and exits.)
    if out.iter().any(|v| global(v) || parameter(v)) && reached(module, id) {
        out.retain(|v| !global(v) && !parameter(v));
    }
    if out.iter().any(global) && !calls_only_library(module, id) {
        out.retain(|v| !global(v));
    }
    out
}

/// The variables function `id` follows in parts: struct variables member by member
/// ([`split_structs`]) and arrays of pointers apart from their rows ([`split_rows`]).
#[derive(Clone, Debug, Default)]
pub struct Split {
    pub structs: HashSet<VarId>,
    pub rows: HashSet<VarId>,
}

impl Split {
    pub fn of(module: &Module, id: FuncId) -> Split {
        Split {
            structs: split_structs(module, id),
            rows: split_rows(module, id),
        }
    }
}

/// The member name of [`crate::semantics::validity::Object::Field`] that stands for the rows
/// of a pointer array followed apart from the array ([`split_rows`]): what `p[i]` points to,
/// for every `i`. Printed after the variable's name: `p[:][:]`.
pub const ROWS: &str = "[:][:]";

/// The rows object of array of pointers `v`.
pub fn rows_of(v: VarId) -> Object {
    Object::Field(v, ROWS.to_string())
}

/// Whether `o` is the rows of an array of pointers ([`split_rows`]).
pub fn is_rows(o: &Object) -> bool {
    matches!(o, Object::Field(_, m) if m == ROWS)
}

/// Every list item of function `id`'s directives that names a variable: the variable, whether
/// the clause maps or moves it (`map`, `to`, `from`), and the item.
fn var_items(
    module: &Module,
    id: FuncId,
) -> impl Iterator<Item = (VarId, bool, &crate::pragma::ListItem)> + '_ {
    module
        .directives
        .iter()
        .filter(move |d| d.function == Some(id))
        .flat_map(|info| {
            info.directive
                .clause_items()
                .enumerate()
                .filter_map(move |(k, (clause, item))| {
                    let crate::ir::BindingTarget::Var(v) = info.bindings.get(k)?.target else {
                        return None;
                    };
                    let motion = matches!(
                        clause.kind,
                        ClauseKind::Map { .. } | ClauseKind::To { .. } | ClauseKind::From { .. }
                    );
                    Some((v, motion, item))
                })
        })
}

/// Arrays of pointers whose rows function `id` maps one by one (`map(to: p[:n])`, then
/// `map(to: p[i][:m])` for each row): followed as two objects, the array of pointers
/// (`Object::Var`) and the data its pointers point to (`Object::Field(p, ROWS)`). Mapping a
/// row attaches the array's device element to it, so the host's writes of the pointers
/// (`p[i] = malloc(...)`) do not leave the device's array stale, and the rows' copies are
/// not taken for copies of the array (a false "stale" on either side otherwise).
///
/// Only where nothing needs the two together:
///
/// - `p` is a local array of pointers or a local pointer to pointers, not `static`, in a file
///   with no `declare mapper`;
/// - the function's `map`/`to`/`from` items name `p` both as the array (`p`, `p[0:n]`) and as
///   rows (`p[i][0:m]`), and no other clause names it;
/// - every use of `p` is `p[e]`, and every `p[e]` is indexed again (`p[e][f]`, `*p[e]`),
///   assigned (`p[e] = ...`), compared, or released (`free(p[e])`, `delete[] p[e]`): no row
///   pointer is copied into a variable or passed to another function.
pub fn split_rows(module: &Module, id: FuncId) -> HashSet<VarId> {
    #[derive(Default)]
    struct Seen {
        array: bool,
        rows: bool,
        other: bool,
    }
    let mut cands: HashMap<VarId, Seen> = HashMap::new();
    let subscript = |a: &Accessor| matches!(a, Accessor::Index(_) | Accessor::Section { .. });
    for (v, motion, item) in var_items(module, id) {
        let c = cands.entry(v).or_default();
        match item.path.as_slice() {
            _ if !motion || item.deref => c.other = true,
            [] => c.array = true,
            [a] if subscript(a) => c.array = true,
            [Accessor::Index(_), b] if subscript(b) => c.rows = true,
            _ => c.other = true,
        }
    }
    cands.retain(|v, c| c.array && c.rows && !c.other && pointer_array(module, *v));
    if cands.is_empty() || has_mappers(module) {
        return HashSet::new();
    }
    let func = module.function(id);
    // The expression each expression is a direct operand of, casts looked through.
    let mut parent: HashMap<crate::ir::ExprId, crate::ir::ExprId> = HashMap::new();
    for (e, x) in func.exprs.iter_enumerated() {
        for c in crate::semantics::symbolic::children(&x.kind) {
            parent.insert(c, e);
        }
    }
    let user = |mut e: crate::ir::ExprId| loop {
        match parent.get(&e) {
            Some(&p) if matches!(func.expr(p).kind, ExprKind::Cast(_)) => e = p,
            Some(&p) => break Some((e, p)),
            None => break None,
        }
    };
    // Values a declaration or a `return` takes: a row pointer there leaves the function's
    // sight of the rows.
    let mut escapes: HashSet<crate::ir::ExprId> = HashSet::new();
    for st in func.stmts.iter() {
        match &st.kind {
            StmtKind::Decl(ds) => {
                escapes.extend(ds.iter().filter_map(|(_, i)| Some(func.strip_casts((*i)?))))
            }
            StmtKind::Return(Some(e)) => {
                escapes.insert(func.strip_casts(*e));
            }
            _ => {}
        }
    }
    let mut bad: HashSet<VarId> = HashSet::new();
    for (e, x) in func.exprs.iter_enumerated() {
        let ExprKind::Var(v) = x.kind else { continue };
        if !cands.contains_key(&v) {
            continue;
        }
        // `p` itself: only as the array indexed.
        let Some((_, sub)) = user(e) else {
            bad.insert(v);
            continue;
        };
        if !matches!(func.expr(sub).kind, ExprKind::Subscript(b, _) if func.strip_casts(b) == e) {
            bad.insert(v);
            continue;
        }
        // `p[e]`: a row indexed again, or the pointer written, compared or released.
        let Some((me, up)) = user(sub) else {
            if escapes.contains(&sub) {
                bad.insert(v);
            }
            continue;
        };
        let fine = match &func.expr(up).kind {
            ExprKind::Subscript(b, _) => *b == me,
            ExprKind::Unary(crate::ir::UnaryOp::Deref | crate::ir::UnaryOp::Not, _) => true,
            ExprKind::Assign(None, l, _) => *l == me,
            ExprKind::Binary(op, ..) => {
                use crate::ir::BinaryOp::*;
                matches!(op, Lt | Gt | Le | Ge | Eq | Ne | And | Or)
            }
            ExprKind::Other { what, .. } => what == "CXXDeleteExpr",
            ExprKind::Call {
                callee: Callee::Direct(c),
                ..
            } => {
                let f = module.function(*c);
                f.in_system_header && f.name == "free"
            }
            _ => false,
        };
        if !fine {
            bad.insert(v);
        }
    }
    cands.into_keys().filter(|v| !bad.contains(v)).collect()
}

/// A local array of pointers (`double *p[N]`) or a local pointer to pointers.
fn pointer_array(module: &Module, v: VarId) -> bool {
    let var = module.var(v);
    let elem_is_pointer = match &var.ty.kind {
        TypeKind::Array { element, .. } => element.is_pointer(),
        TypeKind::Pointer(to) => to.is_pointer(),
        _ => false,
    };
    elem_is_pointer && !var.declare_target && var.storage == Storage::Local
}

fn eligible_var(module: &Module, v: VarId) -> bool {
    let var = module.var(v);
    matches!(var.ty.kind, TypeKind::Record(_))
        && !var.declare_target
        && matches!(
            var.storage,
            Storage::Local | Storage::Global | Storage::StaticGlobal | Storage::Parameter
        )
}

fn has_mappers(module: &Module) -> bool {
    module
        .directives
        .iter()
        .any(|d| d.directive.kind == crate::pragma::DirectiveKind::DeclareMapper)
}

/// Every `x = rhs` and `T x = rhs` of `func` whose target is a plain variable.
fn local_sets(func: &crate::ir::Function) -> Vec<(VarId, crate::ir::ExprId)> {
    let mut out = Vec::new();
    for st in func.stmts.iter() {
        if let StmtKind::Decl(ds) = &st.kind {
            out.extend(ds.iter().filter_map(|(v, init)| init.map(|i| (*v, i))));
        }
    }
    for e in func.exprs.iter() {
        if let ExprKind::Assign(_, lhs, rhs) = &e.kind {
            if let ExprKind::Var(v) = func.expr(*lhs).kind {
                out.push((v, *rhs));
            }
        }
    }
    out
}

/// The variables expression `e` names.
fn mentioned(func: &crate::ir::Function, e: crate::ir::ExprId) -> Vec<VarId> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        let kind = &func.expr(e).kind;
        if let ExprKind::Var(v) = kind {
            out.push(*v);
        }
        stack.extend(crate::semantics::symbolic::children(kind));
    }
    out
}

/// Every call of `id` is to a function of a system header.
fn calls_only_library(module: &Module, id: FuncId) -> bool {
    module.function(id).exprs.iter().all(|e| match &e.kind {
        ExprKind::Call { callee, .. } => match callee {
            Callee::Direct(c) => module.function(*c).in_system_header,
            _ => false,
        },
        _ => true,
    })
}

/// Some function of the file calls `id` or takes its address.
fn reached(module: &Module, id: FuncId) -> bool {
    module.functions.iter().any(|f| {
        f.exprs.iter().any(|e| {
            matches!(e.kind, ExprKind::Func(c) if c == id)
                || matches!(&e.kind, ExprKind::Call { callee: Callee::Direct(c), .. } if *c == id)
        })
    })
}
